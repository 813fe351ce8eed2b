window.__ilsearch=window.__ilsearch||{};__ilsearch["b/0"]=["","+밸","+주","8"];
