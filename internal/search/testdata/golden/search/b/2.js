window.__ilsearch=window.__ilsearch||{};__ilsearch["b/2"]=["네트워킹","뛰","멈췄다","스터"];
