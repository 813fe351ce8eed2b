window.__ilsearch=window.__ilsearch||{};__ilsearch["b/-d2b8-c6e8"]=["트웨","폭","하"];
