window.__ilsearch=window.__ilsearch||{};__ilsearch["b/_c774_bca4_d2b8"]=["이벤트","인증","임아웃"];
