window.__ilsearch=window.__ilsearch||{};__ilsearch["s/p"]=[["platform",1],["pod",2],["point",1],["pool",2],["prob",1],["propagat",1],["proxy",1]];
