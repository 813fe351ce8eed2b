window.__ilsearch=window.__ilsearch||{};__ilsearch["b/_c6cc_d06c_b85c_b4dc"]=["워크로드","이벤트","인증"];
