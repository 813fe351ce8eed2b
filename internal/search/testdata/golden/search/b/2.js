window.__ilsearch=window.__ilsearch||{};__ilsearch["b/2"]=["아직","이터","처","포"];
