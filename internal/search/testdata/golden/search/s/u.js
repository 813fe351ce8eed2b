window.__ilsearch=window.__ilsearch||{};__ilsearch["s/u"]=[["under",1],["unhealthy",1],["unusual",1],["utc",2]];
