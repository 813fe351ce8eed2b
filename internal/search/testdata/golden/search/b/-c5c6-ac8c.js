window.__ilsearch=window.__ilsearch||{};__ilsearch["b/-c5c6-ac8c"]=["없게","옮","워크로드"];
