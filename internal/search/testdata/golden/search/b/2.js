window.__ilsearch=window.__ilsearch||{};__ilsearch["b/2"]=["들어갔다","메","스트","워킹"];
