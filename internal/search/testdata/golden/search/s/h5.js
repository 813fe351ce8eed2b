window.__ilsearch=window.__ilsearch||{};__ilsearch["s/h5"]=[["라우팅",1],["로드",3],["로드밸런서",1]];
