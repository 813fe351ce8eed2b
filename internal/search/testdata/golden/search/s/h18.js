window.__ilsearch=window.__ilsearch||{};__ilsearch["s/h18"]=[["한계",1],["한꺼번",1],["헬스",2],["호스트",1],["회사",1]];
