package site

import "incidentlib/internal/urls"

// searchView is the search page.
type searchView struct {
	*pageView
	Facets []navItem
}

func (s views) searchView(j Job) *searchView {
	p := s.page(j, s.strings.Get(j.Lang, "search.title"))
	p.Section = "search"
	p.OwnSearch = true
	p.Crumbs = []crumb{{p.T("nav.home"), p.Link(urls.Home(j.Lang))}, {p.Title, ""}}
	return &searchView{pageView: p, Facets: p.facetList()}
}
