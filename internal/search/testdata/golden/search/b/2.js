window.__ilsearch=window.__ilsearch||{};__ilsearch["b/2"]=["로드밸","비정","연","인트"];
