package site

import (
	"bytes"
	"strconv"
	"strings"
	texttemplate "text/template"

	"incidentlib/internal/cases"
	"incidentlib/internal/urls"
)

// markdownView is a case page's view as its Markdown twin (templates/case.md)
// sees it: the same CaseView the HTML page renders, with the few ways
// Markdown writes its values (a missing translation as a prefix, labels
// joined by commas, links absolute or to the twin beside).
type markdownView struct {
	*CaseView
	absolute bool // links to related cases are URLs, not relative paths
}

// Text is a text's Markdown source, marked when it is in the other language.
func (v markdownView) Text(t Txt) string { return v.mark(t.Missing) + t.Src }

// Plain is a one-line text, marked the same way.
func (v markdownView) Plain(t plainTxt) string { return v.mark(t.Missing) + t.Text }

func (v markdownView) mark(missing bool) string {
	if !missing {
		return ""
	}
	return "(" + v.T("notranslation") + ") "
}

// Labels joins the labels of terms, or gives a dash for none.
func (v markdownView) Labels(ts []TermLink) string {
	if len(ts) == 0 {
		return "–"
	}
	labels := make([]string, len(ts))
	for i, t := range ts {
		labels[i] = t.Label
	}
	return strings.Join(labels, ", ")
}

// Fact is a fact's value, or "unknown".
func (v markdownView) Fact(f Fact) string {
	if f.Value == "" {
		return v.T("unknown")
	}
	if f.Lang != "" {
		return v.mark(true) + f.Value
	}
	return f.Value
}

// Twin is the link to the Markdown twin of a related case.
func (v markdownView) Twin(id string) string {
	if v.absolute {
		return v.s.URL(urls.Markdown(v.Lang, id))
	}
	return "../" + id + "/" + urls.MarkdownName // the sibling case folder
}

// Abs is the URL of a site path.
func (v markdownView) Abs(path string) string { return v.s.URL(path) }

// APICase and APISimilar are the case's API files.
func (v markdownView) APICase() string    { return urls.APICase(v.C.ID) }
func (v markdownView) APISimilar() string { return urls.APISimilar(v.C.ID) }

var mdFuncs = texttemplate.FuncMap{"inc": func(i int) string { return strconv.Itoa(i + 1) }}

// CaseMarkdown renders the Markdown twin of a case page in lang from the
// page's own view model through the theme's case.md, appending to b. With
// absolute, links to related cases are the URLs of their twins, for a
// reader that has no page to start a relative link from (MCP answers).
func (s *Site) CaseMarkdown(b *bytes.Buffer, c *cases.Case, lang string, absolute bool) error {
	return s.theme.md.execute(b, s.markdownView(c, lang, absolute))
}

func (s *Site) markdownView(c *cases.Case, lang string, absolute bool) *markdownView {
	v := s.caseView(Job{Kind: KindCase, Lang: lang, Path: urls.Case(lang, c.ID), Case: c}, false)
	return &markdownView{CaseView: v, absolute: absolute}
}
