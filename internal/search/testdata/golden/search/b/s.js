window.__ilsearch=window.__ilsearch||{};__ilsearch["b/s"]=["s","ss","traf","wr","건드","계"];
