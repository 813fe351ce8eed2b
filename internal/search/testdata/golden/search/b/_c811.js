window.__ilsearch=window.__ilsearch||{};__ilsearch["b/_c811"]=["접","체","케"];
