window.__ilsearch=window.__ilsearch||{};__ilsearch["s/d"]=[["databas",1],["defect",3],["deploy",1],["devop",1],["dfd",1],["do",1],["down",1],["drain",1]];
