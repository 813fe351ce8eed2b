package mcpserver

import (
	"bytes"

	"incidentlib/internal/casemd"
	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/library"
)

// casePages is what the answers show as the site shows it, without a
// template: a case's Markdown through casemd, the writer of the site's
// Markdown twins, and the words of the string catalogue (cases.Catalogue).
type casePages struct {
	md    *casemd.Writer
	model *library.Library
}

func newPages(l *library.Library) *casePages {
	return &casePages{md: casemd.New(l.Lib, cases.Catalogue, ""), model: l}
}

// CaseMarkdown appends the Markdown of c in lang to b, with its related
// cases as its page lists them.
func (p *casePages) CaseMarkdown(b *bytes.Buffer, c *cases.Case, lang string, absolute bool) error {
	var related []casemd.Related
	for _, g := range p.model.Related(c.ID) {
		for _, l := range g.Links {
			related = append(related, casemd.Related{Case: p.model.Lib.ByID[l.ID], Why: p.model.Reason(p.md.Strings(), lang, l.Kind, l.Reason)})
		}
	}
	p.md.Case(b, c, lang, related, absolute)
	return nil
}

func (p *casePages) Strings() l10n.Strings  { return p.md.Strings() }
func (p *casePages) URL(path string) string { return p.md.URL(path) }
