window.__ilsearch=window.__ilsearch||{};__ilsearch["s/n"]=[["network",3],["new",1],["nginx",1],["no",1],["nod",2],["not",2]];
