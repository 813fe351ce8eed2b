window.__ilsearch=window.__ilsearch||{};__ilsearch["b/1"]=["ex","new","st","게이트"];
