window.__ilsearch=window.__ilsearch||{};__ilsearch["s/h4"]=[["때문",1]];
