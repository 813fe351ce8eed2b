package site

import (
	"bytes"
	"strconv"
	"strings"
	texttemplate "text/template"

	"incidentlib/internal/cases"
	"incidentlib/internal/markup"
	"incidentlib/internal/urls"
)

// markdownView is a case page's view as its Markdown twin (templates/case.md)
// sees it: the same CaseView the HTML page renders, with each value already
// written the way Markdown writes it (a missing translation as a prefix,
// labels joined by commas, links absolute or to the twin beside). They are
// fields rather than methods so that the compiled template reads them
// without a reflective call: a library writes two twins a case.
type markdownView struct {
	*CaseView
	Title                                       string
	Domains, Symptoms, Components, Contributing string
	Summary, SymptomsText, Trigger, Detection   string
	Facts                                       []mdFact
	OtherTerms                                  []mdFact // CaseView.Other: a facet's name and its terms' labels
	Remediation, ActionItems                    []string
	HasLessons                                  bool
	Lessons                                     string
	Related                                     []mdRelated
	APICase, APISimilar                         string // URLs
	// The values of CaseView that case text or a case's fields fill,
	// written for Markdown (markup.MarkdownLine, MarkdownURL).
	Org, WrittenBy, ReviewedBy, Canonical string
	RootCause                             string
	Sources                               []sourceView
	Docs                                  []string
}

// mdFact is a fact's label and its value, or "unknown".
type mdFact struct{ Label, Value string }

// mdRelated is a related case as a line of the twin.
type mdRelated struct{ ID, Title, Href, Why string }

// markdownView writes v, the view of a case page, as its Markdown twin
// shows it.
func (s twins) markdownView(v *CaseView, absolute bool) *markdownView {
	c, lang := v.C, v.Lang
	mark := func(missing bool) string {
		if !missing {
			return ""
		}
		return "(" + v.T("notranslation") + ") "
	}
	// Case text keeps its inline Markdown; one-line values are text.
	// Either way nothing in them is live beyond what the HTML page shows
	// (see markup.MarkdownText).
	text := func(t localized) string { return mark(t.Missing) + markup.MarkdownText(t.Src) }
	line := markup.MarkdownLine
	labels := func(ts []termLink) string {
		if len(ts) == 0 {
			return "–"
		}
		l := make([]string, len(ts))
		for i, t := range ts {
			l[i] = line(t.Label)
		}
		return strings.Join(l, ", ")
	}
	m := &markdownView{
		CaseView: v,
		Title:    mark(v.TitleT.Missing) + line(v.TitleT.Text),
		Org:      line(v.Org), WrittenBy: line(v.WrittenBy), ReviewedBy: line(c.Review.ReviewedBy),
		Canonical: markup.MarkdownURL(c.URL), RootCause: line(v.RootCause.Label),
		Domains: labels(v.Domains), Symptoms: labels(v.Symptoms),
		Components: labels(v.Components), Contributing: labels(v.Contributing),
		Summary: text(v.Summary), SymptomsText: text(v.SymptomsText),
		Trigger: text(v.Trigger), Detection: text(v.Detection),
		APICase: s.URL(urls.APICase(c.ID)), APISimilar: s.URL(urls.APISimilar(c.ID)),
	}
	related := 0
	for _, g := range v.Related {
		related += len(g.Cases)
	}
	m.OtherTerms = make([]mdFact, 0, len(v.Other))
	m.Facts = make([]mdFact, 0, len(v.Facts))
	m.Remediation = make([]string, 0, len(v.Remediation))
	m.ActionItems = make([]string, 0, len(v.ActionItems))
	m.Related = make([]mdRelated, 0, related)
	for _, o := range v.Other {
		m.OtherTerms = append(m.OtherTerms, mdFact{o.Title, labels(o.Terms)})
	}
	for _, src := range v.Sources {
		m.Sources = append(m.Sources, sourceView{URL: markup.MarkdownURL(src.URL), Kind: line(src.Kind), Archived: markup.MarkdownURL(src.Archived)})
	}
	for _, d := range v.Docs {
		m.Docs = append(m.Docs, markup.MarkdownURL(d))
	}
	for _, f := range v.Facts {
		val := f.Value
		switch {
		case val == "":
			val = v.T("unknown")
		case f.Lang != "":
			val = mark(true) + val
		}
		m.Facts = append(m.Facts, mdFact{f.Label, line(val)})
	}
	for _, t := range v.Remediation {
		m.Remediation = append(m.Remediation, text(t))
	}
	for _, t := range v.ActionItems {
		m.ActionItems = append(m.ActionItems, text(t))
	}
	if v.Lessons != nil {
		m.HasLessons, m.Lessons = true, text(*v.Lessons)
	}
	for _, g := range v.Related {
		for _, r := range g.Cases {
			href := urls.SiblingMarkdown(r.ID)
			if absolute {
				href = s.URL(urls.Markdown(lang, r.ID))
			}
			m.Related = append(m.Related, mdRelated{r.ID, mark(r.Title.Missing) + line(r.Title.Text), href, line(r.Why)})
		}
	}
	return m
}

var mdFuncs = texttemplate.FuncMap{"inc": func(i int) string { return strconv.Itoa(i + 1) }}

// CaseMarkdown renders the Markdown twin of a case page in lang from the
// page's own view model through the theme's case.md, appending to b. With
// absolute, links to related cases are the URLs of their twins, for a
// reader that has no page to start a relative link from (MCP answers).
func (s *Site) CaseMarkdown(b *bytes.Buffer, c *cases.Case, lang string, absolute bool) error {
	v, err := views{s}.caseView(Job{Kind: KindCase, Lang: lang, Path: urls.Case(lang, c.ID), Case: c}, false)
	if err != nil {
		return err
	}
	return twins{s}.twin(b, v, absolute)
}

// twin renders v, the view of a case page, as its Markdown twin.
func (s twins) twin(b *bytes.Buffer, v *CaseView, absolute bool) error {
	return s.theme.md.execute(b, s.markdownView(v, absolute))
}

// twins writes case pages as their Markdown twins.
type twins struct{ *Site }
