window.__ilsearch=window.__ilsearch||{};__ilsearch["b/3"]=["재시작","타","해"];
