window.__ilsearch=window.__ilsearch||{};__ilsearch["b/_b4dc_d3ec_c778"]=["드포인","레인","료","많"];
