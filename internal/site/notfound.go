package site

import (
	"incidentlib/internal/cases"
	"incidentlib/internal/urls"
)

// notFoundView is a 404 page: the root's in both languages at once (Parts),
// or a language's own (Lang set), with its header, footer and search box,
// which hosts serve for a missing path under that language's folder (see
// urls.NotFoundFor).
type notFoundView struct {
	*pageView
	Parts    []rootChoice
	HomeLink string
}

func (s views) notFoundView(j Job) *notFoundView {
	if j.Lang != "" {
		p := s.page(j, s.strings.Get(j.Lang, "notfound.title"))
		p.Noindex = true
		p.Canonical = ""
		p.Alternates = nil
		p.Description = s.strings.Get(j.Lang, "notfound.text")
		return &notFoundView{pageView: p, HomeLink: p.Link(urls.Home(j.Lang))}
	}
	p := s.page(j, s.strings.Get("en", "notfound.title")+" · "+s.strings.Get("ko", "notfound.title"))
	p.Lang = "en"
	p.Both = true
	p.Noindex = true
	v := &notFoundView{pageView: p}
	p.Description = s.strings.Get("en", "notfound.text")
	for _, lang := range cases.Languages {
		// Its links resolve from the site's root path (see Site.rootOf).
		v.Parts = append(v.Parts, rootChoice{Lang: lang, Name: s.strings.Get(lang, "notfound.title"), Desc: s.strings.Get(lang, "notfound.text"), Title: s.strings.Get(lang, "notfound.home"), Href: p.Link(urls.Home(lang)),
			NavLabel: s.strings.Get(lang, "nav.main"), Nav: s.nav[lang]})
	}
	return v
}
