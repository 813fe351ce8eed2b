window.__ilsearch=window.__ilsearch||{};__ilsearch["b/_cf00"]=["케","트웨","폭"];
