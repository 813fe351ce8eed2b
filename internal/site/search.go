package site

import "incidentlib/internal/urls"

// SearchView is the search page.
type SearchView struct {
	*Page
	Facets []NavItem
}

func (s *Site) searchView(j Job) *SearchView {
	p := s.page(j, s.strings.Get(j.Lang, "search.title"))
	p.Section = "search"
	p.OwnSearch = true
	p.Crumbs = []Crumb{{p.T("nav.home"), p.Link(urls.Home(j.Lang))}, {p.Title, ""}}
	return &SearchView{Page: p, Facets: s.facetList(p)}
}
