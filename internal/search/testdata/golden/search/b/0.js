window.__ilsearch=window.__ilsearch||{};__ilsearch["b/0"]=["","+설정오","+헬","con"];
