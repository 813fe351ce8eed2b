window.__ilsearch=window.__ilsearch||{};__ilsearch["b/1"]=["k","sev2","게이트웨이","대치"];
