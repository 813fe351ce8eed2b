window.__ilsearch=window.__ilsearch||{};__ilsearch["b/_002b_c5b4"]=["+어","+인메","+체크응","002"];
