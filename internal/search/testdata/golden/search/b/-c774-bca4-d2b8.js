window.__ilsearch=window.__ilsearch||{};__ilsearch["b/-c774-bca4-d2b8"]=["이벤트","인증","임아웃"];
