window.__ilsearch=window.__ilsearch||{};__ilsearch["b/2"]=["네티","라","메","스턴"];
