window.__ilsearch=window.__ilsearch||{};__ilsearch["s/h15"]=[["캐시",2],["컨트롤러",3],["쿠버네티스",4],["쿼리",1],["클라우드",2],["클러스터",1]];
