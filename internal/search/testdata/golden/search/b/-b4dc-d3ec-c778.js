window.__ilsearch=window.__ilsearch||{};__ilsearch["b/-b4dc-d3ec-c778"]=["드포인","레인","료","많"];
