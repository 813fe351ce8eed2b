window.__ilsearch=window.__ilsearch||{};__ilsearch["b/_d2b8_c6e8"]=["트웨","폭","하"];
