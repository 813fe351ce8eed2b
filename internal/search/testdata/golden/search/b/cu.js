window.__ilsearch=window.__ilsearch||{};__ilsearch["b/cu"]=["cu","g","hu","loc","ol","r"];
