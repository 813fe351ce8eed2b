window.__ilsearch=window.__ilsearch||{};__ilsearch["s/h7"]=[["배인",1],["밸런서",3],["버그",2],["변경",1],["보안",1],["비정상적",1]];
