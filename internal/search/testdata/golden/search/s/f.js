window.__ilsearch=window.__ilsearch||{};__ilsearch["s/f"]=[["fail",2],["falsely",1],["fell",1],["front",1]];
