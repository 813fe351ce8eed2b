package site

import (
	"bytes"
	"incidentlib/internal/markup"
	"strings"
	"testing"

	"incidentlib/internal/cases"
	"incidentlib/internal/urls"
)

// TestLLMsBothLanguages: llms.txt lists every case once in each language,
// the English section linking the English twins and the Korean section the
// Korean ones, with the title and the organisation as that language's page
// shows them; and a title's brackets cannot end its link's text early, also
// in the hostile corpus (whose titles hold "[click](javascript:…)").
func TestLLMsBothLanguages(t *testing.T) {
	for _, lib := range []*cases.Library{loadContent(t, contentFS(t)), loadContent(t, hostileContent(t))} {
		s := newSite(t, lib, false)
		var b bytes.Buffer
		if err := s.LLMs(&b); err != nil {
			t.Fatal(err)
		}
		en, ko, ok := strings.Cut(b.String(), "\n## 사례 (한국어)\n")
		if !ok {
			t.Fatalf("llms.txt has no Korean section:\n%s", b.String())
		}
		for _, sec := range []struct {
			lang, text string
		}{{"en", en}, {"ko", ko}} {
			lines := map[string]string{} // by case ID
			for line := range strings.Lines(sec.text) {
				text, ok := strings.CutPrefix(line, "- [IL-")
				if !ok {
					continue
				}
				label, rest, ok := cutLinkText(text)
				if !ok {
					t.Errorf("%s: a link's text does not end: %q", sec.lang, line)
					continue
				}
				id, _, _ := strings.Cut("IL-"+label, ":")
				if lines[id] != "" {
					t.Errorf("%s: %s listed twice", sec.lang, id)
				}
				lines[id] = "[IL-" + label + rest
			}
			for _, c := range lib.Cases {
				line := lines[c.ID]
				title, _ := c.Title.In(sec.lang)
				// Titles and names are written as Markdown text on one line
				// (markup.MarkdownLine).
				title = unescapeLinkText(markup.MarkdownLine(title))
				href := "](" + s.URL(urls.Markdown(sec.lang, c.ID)) + ") (" + markup.MarkdownLine(c.OrgName().Get(sec.lang))
				if line == "" || !strings.Contains(unescapeLinkText(line), title) || !strings.Contains(line, href) {
					t.Errorf("%s: %s is listed as %q, want its title %q and %q", sec.lang, c.ID, line, title, href)
				}
			}
		}
	}
}

// cutLinkText cuts a Markdown link's text, starting after its "[", at the
// first "]" no backslash escapes, and says whether there is one.
func cutLinkText(s string) (text, rest string, ok bool) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			return "", "", false // a link inside a link's text
		case ']':
			return s[:i], s[i:], true
		}
	}
	return "", "", false
}

func unescapeLinkText(s string) string {
	return strings.NewReplacer(`\\`, `\`, `\[`, "[", `\]`, "]").Replace(s)
}
