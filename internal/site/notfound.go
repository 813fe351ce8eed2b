package site

import (
	"incidentlib/internal/cases"
	"incidentlib/internal/urls"
)

// NotFoundView is the 404 page, in both languages at once.
type NotFoundView struct {
	*Page
	Parts []RootChoice
}

func (s *Site) notFoundView(j Job) *NotFoundView {
	p := s.page(j, s.strings.Get("en", "notfound.title"))
	p.Lang = "en"
	p.Noindex = true
	v := &NotFoundView{Page: p}
	p.Description = s.strings.Get("en", "notfound.text")
	for _, lang := range cases.Languages {
		// Its links resolve from the site's root path (see Site.rootOf).
		v.Parts = append(v.Parts, RootChoice{Lang: lang, Name: s.strings.Get(lang, "notfound.title"), Desc: s.strings.Get(lang, "notfound.text"), Title: s.strings.Get(lang, "notfound.home"), Href: p.Link(urls.Home(lang))})
	}
	return v
}
