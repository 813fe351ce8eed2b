window.__ilsearch=window.__ilsearch||{};__ilsearch["b/3"]=["쿠버네","프트"];
