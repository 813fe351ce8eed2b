window.__ilsearch=window.__ilsearch||{};__ilsearch["b/2024-b144"]=["2024년","8월","cd"];
