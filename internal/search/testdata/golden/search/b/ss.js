window.__ilsearch=window.__ilsearch||{};__ilsearch["b/ss"]=["ss","traf","wr"];
