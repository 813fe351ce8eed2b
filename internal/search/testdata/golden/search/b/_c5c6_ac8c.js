window.__ilsearch=window.__ilsearch||{};__ilsearch["b/_c5c6_ac8c"]=["없게","옮","워크로드"];
