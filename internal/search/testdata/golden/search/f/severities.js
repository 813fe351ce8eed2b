window.__ilsearch=window.__ilsearch||{};__ilsearch["f/severities"]={"facet":"severities","terms":[{"id":"sev1","l":["SEV1","SEV1"],"n":2,"d":[1,2]},{"id":"sev2","l":["SEV2","SEV2"],"n":1,"d":[2]}]};
