window.__ilsearch=window.__ilsearch||{};__ilsearch["b/3"]=["용","일","케이션","포인트"];
