package site

import (
	"bytes"
	"incidentlib/internal/markup"
	"strings"
	texttemplate "text/template"

	"incidentlib/internal/cases"
	"incidentlib/internal/urls"
)

// LLMsView is what llms.txt (templates/llms.txt) shows: the site's own
// settings, where its data is, and every case, newest first.
type LLMsView struct {
	Site  cases.Settings
	Cases []*cases.Case
	s     *Site
}

// Abs is the URL of a site path.
func (v LLMsView) Abs(path string) string { return v.s.URL(path) }

// Title is a case's title in lang, or in the other language when it has
// none in lang.
func (v LLMsView) Title(lang string, c *cases.Case) string {
	t, _ := c.Title.In(lang)
	return t
}

// LinkText writes s as the text of a Markdown link, on one line: a line
// break, a backslash, a square bracket or a tag in a title would start a
// heading, end the link's text early, make another link or markup
// (markup.MarkdownLine).
func (LLMsView) LinkText(s string) string { return markup.MarkdownLine(s) }

// Line writes a value from the content (an organisation, the site's title)
// as Markdown text on one line.
func (LLMsView) Line(s string) string { return markup.MarkdownLine(s) }

// The paths llms.txt names, from the URL contract.
func (LLMsView) Case(lang, id string) string        { return urls.Case(lang, id) }
func (LLMsView) Markdown(lang, id string) string    { return urls.Markdown(lang, id) }
func (LLMsView) MarkdownName() string               { return urls.MarkdownName }
func (LLMsView) APICases() string                   { return urls.APICases }
func (LLMsView) APIVocab() string                   { return urls.APIVocab }
func (LLMsView) APISchema() string                  { return urls.APISchema }
func (LLMsView) APICase(id string) string           { return urls.APICase(id) }
func (LLMsView) APISimilar(id string) string        { return urls.APISimilar(id) }
func (LLMsView) APITopic(facet, term string) string { return urls.APITopic(facet, term) }

// LLMs renders llms.txt into b.
func (s *Site) LLMs(b *bytes.Buffer) error {
	return s.theme.llms.execute(b, s.llmsView())
}

func (s *Site) llmsView() LLMsView { return LLMsView{Site: s.lib.Settings, Cases: s.lib.Cases, s: s} }

var llmsFuncs = texttemplate.FuncMap{"join": strings.Join}
