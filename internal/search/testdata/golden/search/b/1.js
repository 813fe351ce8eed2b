window.__ilsearch=window.__ilsearch||{};__ilsearch["b/1"]=["ex","ng","star","게이트웨"];
