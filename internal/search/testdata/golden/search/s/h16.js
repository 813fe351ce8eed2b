window.__ilsearch=window.__ilsearch||{};__ilsearch["s/h16"]=[["타임아웃되지",1],["트래픽",2]];
