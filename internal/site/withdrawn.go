package site

import (
	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/library"
	"incidentlib/internal/urls"
)

// withdrawnView is the notice on a withdrawn case's page: when and why,
// and the cases that replace it.
type withdrawnView struct {
	Date       string // in words
	ISO        string // for the datetime attribute
	Reason     localized
	ReplacedBy []caseLink
}

// withdrawnView returns the notice of a withdrawn case, nil for a listed
// one.
func (p *pageView) withdrawnView(c *cases.Case, txt func(cases.Bilingual, string) localized) (*withdrawnView, error) {
	w := c.Withdrawn
	if w == nil {
		return nil, nil
	}
	v := &withdrawnView{Date: l10n.Date(p.Lang, w.Date.Year, w.Date.Month, w.Date.Day), ISO: w.Date.String(), Reason: txt(w.Reason, p.Lang)}
	for _, id := range w.ReplacedBy {
		r := p.s.lib.ByID[id]
		if r == nil {
			continue // check reports it
		}
		l, err := p.caseLink(r, "")
		if err != nil {
			return nil, err
		}
		v.ReplacedBy = append(v.ReplacedBy, l)
	}
	return v, nil
}

// cite returns how to cite c on its page in the page's language.
func (p *pageView) cite(c *cases.Case) library.Citation {
	return p.s.model.Cite(p.s.strings, p.Lang, c, p.s.URL(urls.Case(p.Lang, c.ID)))
}
