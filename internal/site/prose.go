package site

import (
	"fmt"
	"html/template"
	"incidentlib/internal/casemd"
	"incidentlib/internal/cases"
	"incidentlib/internal/markup"
	"incidentlib/internal/urls"
)

// proseView is a prose page.
type proseView struct {
	*pageView
	Body     template.HTML
	BodyLang string
	Missing  bool
	TOC      []markup.Heading
	EditLink string // opens the page's file for editing, or ""
	// Repository is where changes go, shown on the contribute page only
	// (the page that explains how to send them), or "".
	Repository string
}

// contributeSlug is the prose page that explains how to add and correct
// cases, which names the repository changes go to.
const contributeSlug = "contribute"

func (s views) proseView(j Job) (*proseView, error) {
	var pg *cases.Prose
	for i := range s.lib.Prose {
		if s.lib.Prose[i].Slug == j.Slug {
			pg = &s.lib.Prose[i]
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
	p.Crumbs = []crumb{{p.T("nav.home"), p.Link(urls.Home(j.Lang))}, {title, ""}}
	if written != j.Lang {
		p.TitleLang = written
	}
	v := &proseView{pageView: p, Body: template.HTML(body), BodyLang: written, Missing: written != j.Lang, TOC: toc, EditLink: casemd.EditLink(s.lib.Settings, pg.File.Get(written))}
	if pg.Slug == contributeSlug {
		v.Repository = s.lib.Settings.Repository.URL
	}
	return v, nil
}
