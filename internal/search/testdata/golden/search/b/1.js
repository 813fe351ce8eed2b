window.__ilsearch=window.__ilsearch||{};__ilsearch["b/1"]=["hu","res","가리","내부"];
