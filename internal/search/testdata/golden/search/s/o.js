window.__ilsearch=window.__ilsearch||{};__ilsearch["s/o"]=[["off",1],["old",1],["onc",1],["one",1],["only",1],["out",2]];
