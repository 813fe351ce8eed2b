window.__ilsearch=window.__ilsearch||{};__ilsearch["s/m"]=[["mad",1],["main",1],["malform",1],["mark",1],["mass",1],["memory",1],["mov",1]];
