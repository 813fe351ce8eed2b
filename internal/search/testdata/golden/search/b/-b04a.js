window.__ilsearch=window.__ilsearch||{};__ilsearch["b/-b04a"]=["끊","너","늘","되지"];
