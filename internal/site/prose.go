package site

import (
	"fmt"
	"html/template"
	"incidentlib/internal/cases"
	"incidentlib/internal/markup"
	"incidentlib/internal/urls"
)

// ProseView is a prose page.
type ProseView struct {
	*Page
	Body     template.HTML
	BodyLang string
	Missing  bool
	TOC      []markup.Heading
}

func (s *Site) proseView(j Job) (*ProseView, error) {
	var pg *cases.Page
	for i := range s.lib.Pages {
		if s.lib.Pages[i].Slug == j.Slug {
			pg = &s.lib.Pages[i]
		}
	}
	if pg == nil {
		return nil, fmt.Errorf("no page %q", j.Slug)
	}
	src, written := pg.Body.In(j.Lang)
	title, body, toc := markup.Prose(src)
	if title == "" {
		title = pg.Slug
	}
	p := s.page(j, title)
	p.Section = pg.Slug
	p.Crumbs = []Crumb{{p.T("nav.home"), p.Link(urls.Home(j.Lang))}, {title, ""}}
	if written != j.Lang {
		p.TitleLang = written
	}
	return &ProseView{Page: p, Body: template.HTML(body), BodyLang: written, Missing: written != j.Lang, TOC: toc}, nil
}
