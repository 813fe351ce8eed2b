window.__ilsearch=window.__ilsearch||{};__ilsearch["s/y"]=[["yet",1]];
