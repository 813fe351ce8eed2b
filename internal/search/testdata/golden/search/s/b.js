window.__ilsearch=window.__ilsearch||{};__ilsearch["s/b"]=[["back",1],["balancer",3],["block",1],["bug",2],["built",1],["burst",1]];
