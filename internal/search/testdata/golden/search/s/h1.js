window.__ilsearch=window.__ilsearch||{};__ilsearch["s/h1"]=[["끊겼다",1]];
