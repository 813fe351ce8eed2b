window.__ilsearch=window.__ilsearch||{};__ilsearch["b/_b04a"]=["끊","너","늘","되지"];
