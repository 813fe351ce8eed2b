window.__ilsearch=window.__ilsearch||{};__ilsearch["s/e"]=[["end",1],["endpoint",1],["error",1],["event",1],["every",3],["exampl",1],["expir",1],["externaltrafficpolicy",1]];
