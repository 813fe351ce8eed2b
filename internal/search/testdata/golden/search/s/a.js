window.__ilsearch=window.__ilsearch||{};__ilsearch["s/a"]=[["after",1],["api",1],["application",1]];
