window.__ilsearch=window.__ilsearch||{};__ilsearch["b/_ac74_b4dc"]=["건드","계","끊"];
