window.__ilsearch=window.__ilsearch||{};__ilsearch["b/_b108"]=["너","늘","되지"];
