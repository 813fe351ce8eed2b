window.__ilsearch=window.__ilsearch||{};__ilsearch["s/i"]=[["il",6],["increas",1],["ingest",1],["ingestion",1],["ingress",3],["ingressrout",1],["instanc",1],["internal",1]];
