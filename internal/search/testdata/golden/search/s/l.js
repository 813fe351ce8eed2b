window.__ilsearch=window.__ilsearch||{};__ilsearch["s/l"]=[["layer",1],["left",1],["let",1],["limit",1],["load",3],["local",1]];
