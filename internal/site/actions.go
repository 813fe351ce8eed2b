package site

import (
	"incidentlib/internal/casemd"
	"incidentlib/internal/cases"
)

// actionView is one action item as a page shows it: its text, and what it
// is for and how far it got in the page's language. A status the case does
// not give is shown as unknown, as the source leaves it.
type actionView struct {
	Text        localized
	Kind        string // one of cases.ActionKinds, or ""
	KindLabel   string
	Status      string // one of cases.ActionStatuses; "unknown" when not given
	StatusLabel string
}

// actionItems are a case's action items in the page's language; txt is
// localize or localizeSource.
func (p *pageView) actionItems(items []cases.ActionItem, txt func(cases.Bilingual, string) localized) []actionView {
	out := make([]actionView, 0, len(items))
	for _, it := range items {
		out = append(out, p.actionView(it, txt(it.Text, p.Lang)))
	}
	return out
}

func (p *pageView) actionView(it cases.ActionItem, text localized) actionView {
	v := actionView{Text: text, Kind: it.Kind, Status: it.Status}
	if v.Status == "" {
		v.Status = "unknown"
	}
	v.StatusLabel = p.T("action.status." + v.Status)
	if v.Kind != "" {
		v.KindLabel = p.T("action.kind." + v.Kind)
	}
	return v
}

// unknownStatus is "Status unknown" in the page's language when no item of
// items says what it is for or how far it got, and "" otherwise: a list of
// such items says it once, by its heading, rather than on every line. Most
// cases of a growing library give neither, and a case's items are on its
// page and in its card on a dozen topic pages.
func (p *pageView) unknownStatus(items []actionView) string {
	for _, a := range items {
		if a.KindLabel != "" || a.Status != "unknown" {
			return ""
		}
	}
	return p.T("action.status.unknown")
}

// affectedView is one product a case affects and its versions in words.
type affectedView struct {
	ID       string
	Product  string
	URL      string
	Versions string
}

// affected is what a case page says about the products a case affects.
func (p *pageView) affected(c *cases.Case) []affectedView {
	out := make([]affectedView, 0, len(c.Affected))
	for _, a := range c.Affected {
		v := affectedView{ID: a.Product, Product: a.Product, Versions: casemd.VersionWords(a, p.T)}
		if pr, ok := p.s.lib.Vocab.Product(a.Product); ok {
			v.Product, v.URL = pr.Label.Get(p.Lang), pr.URL
		}
		out = append(out, v)
	}
	return out
}

// actionNote is an action item's kind and status as the Markdown twin
// writes them after its text: " (Prevent · Done)".
func actionNote(a actionView) string {
	if a.KindLabel == "" {
		return " (" + a.StatusLabel + ")"
	}
	return " (" + a.KindLabel + " · " + a.StatusLabel + ")"
}
