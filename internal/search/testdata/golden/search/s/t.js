window.__ilsearch=window.__ilsearch||{};__ilsearch["s/t"]=[["tcp",1],["team",3],["thes",1],["through",2],["tier",1],["tim",1],["traefik",1],["traffic",1],["trigger",2],["try",1],["two",1]];
