window.__ilsearch=window.__ilsearch||{};__ilsearch["b/3"]=["요","인하자","케","포"];
