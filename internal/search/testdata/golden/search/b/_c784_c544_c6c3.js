window.__ilsearch=window.__ilsearch||{};__ilsearch["b/_c784_c544_c6c3"]=["임아웃","접","체"];
