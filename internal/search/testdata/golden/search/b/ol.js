window.__ilsearch=window.__ilsearch||{};__ilsearch["b/ol"]=["ol","r","s"];
