window.__ilsearch=window.__ilsearch||{};__ilsearch["s/h14"]=[["처리",1],["체크",2],["최대치",1]];
