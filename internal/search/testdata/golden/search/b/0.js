window.__ilsearch=window.__ilsearch||{};__ilsearch["b/0"]=["","cou","lo","sk"];
