package site

import (
	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/urls"
)

// facetView lists every term of a facet with its count.
type facetView struct {
	*pageView
	Intro  string
	Terms  []facetTerm
	Facets []navItem
}

// facetTerm is one term on a facet page.
type facetTerm struct {
	Label string
	Href  string
	Count string
	N     int
	Desc  localizedLine
}

func (p *pageView) facetList() []navItem {
	var out []navItem
	for _, f := range cases.Facets {
		out = append(out, navItem{f.Name, f.Label.Get(p.Lang), p.Link(urls.FacetIndex(p.Lang, f.Name))})
	}
	return out
}

func (s views) facetView(j Job) *facetView {
	facet := cases.FacetByName(j.Facet)
	p := s.page(j, facet.Label.Get(j.Lang))
	p.Section = j.Facet
	p.Crumbs = []crumb{{p.T("nav.home"), p.Link(urls.Home(j.Lang))}, {p.Title, ""}}
	v := &facetView{pageView: p, Intro: facet.Intro.Get(j.Lang), Facets: p.facetList()}
	for _, t := range s.topics[j.Facet].Topics {
		v.Terms = append(v.Terms, facetTerm{
			Label: t.Label.Get(j.Lang), Href: p.Link(urls.Topic(j.Lang, j.Facet, t.ID, 1)),
			Count: l10n.Cases(j.Lang, len(t.Cases)), N: len(t.Cases), Desc: localizeLine(t.Description, j.Lang),
		})
	}
	return v
}
