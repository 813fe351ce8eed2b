window.__ilsearch=window.__ilsearch||{};__ilsearch["b/_d558"]=["하"];
