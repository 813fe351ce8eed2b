window.__ilsearch=window.__ilsearch||{};__ilsearch["s/h"]=[["health",2],["hit",1],["hof",1],["honeycomb",1],["host",1],["http",1],["hubspot",1]];
