window.__ilsearch=window.__ilsearch||{};__ilsearch["b/_b9ce"]=["많","비정","수집"];
