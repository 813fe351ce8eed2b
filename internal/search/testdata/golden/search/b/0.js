window.__ilsearch=window.__ilsearch||{};__ilsearch["b/0"]=["","+설","+타","cd"];
