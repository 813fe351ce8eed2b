window.__ilsearch=window.__ilsearch||{};__ilsearch["s/w"]=[["when",1],["whil",1],["without",1],["work",1],["workload",1],["writ",1]];
