package site

import (
	"bytes"

	"incidentlib/internal/casemd"
	"incidentlib/internal/cases"
	"incidentlib/internal/urls"
)

// CaseMarkdown writes the Markdown twin of a case page in lang, appending
// to b. With absolute, links to related cases are the URLs of their twins,
// for a reader that has no page to start a relative link from.
func (s *Site) CaseMarkdown(b *bytes.Buffer, c *cases.Case, lang string, absolute bool) error {
	v, err := views{s}.caseView(Job{Kind: KindCase, Lang: lang, Path: urls.Case(lang, c.ID), Case: c}, false)
	if err != nil {
		return err
	}
	return twins{s}.twin(b, v, absolute)
}

// twins writes case pages as their Markdown twins, through casemd, the
// writer the MCP server shows cases with too.
type twins struct{ *Site }

// twin writes v, the view of a case page, as its Markdown twin: the case
// and its related cases as the page lists them.
func (s twins) twin(b *bytes.Buffer, v *CaseView, absolute bool) error {
	n := 0
	for _, g := range v.Related {
		n += len(g.Cases)
	}
	related := make([]casemd.Related, 0, n)
	for _, g := range v.Related {
		for _, r := range g.Cases {
			related = append(related, casemd.Related{Case: s.lib.ByID[r.ID], Why: r.Why})
		}
	}
	s.md.Case(b, v.C, v.Lang, related, absolute)
	return nil
}
