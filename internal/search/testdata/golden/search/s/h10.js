window.__ilsearch=window.__ilsearch||{};__ilsearch["s/h10"]=[["쓰기",1]];
