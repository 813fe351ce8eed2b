window.__ilsearch=window.__ilsearch||{};__ilsearch["b/_c4f0"]=["쓰","없게","옮"];
