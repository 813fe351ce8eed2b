window.__ilsearch=window.__ilsearch||{};__ilsearch["s/h17"]=[["파드",2],["평소",1],["폭증",1],["프로브",1]];
