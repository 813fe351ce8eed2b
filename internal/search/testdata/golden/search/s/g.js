window.__ilsearch=window.__ilsearch||{};__ilsearch["s/g"]=[["gateway",1],["gfe",1],["gke",1],["global",1],["googl",2]];
