window.__ilsearch=window.__ilsearch||{};__ilsearch["b/-be44-c815"]=["비정","수집","쓰"];
