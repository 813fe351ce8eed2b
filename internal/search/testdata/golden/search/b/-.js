window.__ilsearch=window.__ilsearch||{};__ilsearch["b/-"]=["","+내","+만"];
