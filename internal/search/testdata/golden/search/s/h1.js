window.__ilsearch=window.__ilsearch||{};__ilsearch["s/h1"]=[["꺼번",1],["끊겼",1],["끊겼다",1]];
