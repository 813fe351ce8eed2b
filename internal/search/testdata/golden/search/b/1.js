window.__ilsearch=window.__ilsearch||{};__ilsearch["b/1"]=["결재","던","려고","부"];
