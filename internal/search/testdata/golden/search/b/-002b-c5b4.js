window.__ilsearch=window.__ilsearch||{};__ilsearch["b/-002b-c5b4"]=["+어","+인메","+체크응","002"];
