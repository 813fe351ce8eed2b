window.__ilsearch=window.__ilsearch||{};__ilsearch["b/_"]=["","+내","+만"];
