window.__ilsearch=window.__ilsearch||{};__ilsearch["b/_be44_c815"]=["비정","수집","쓰"];
