window.__ilsearch=window.__ilsearch||{};__ilsearch["b/-c811"]=["접","체","케"];
