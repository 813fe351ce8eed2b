package site

import (
	"fmt"
	"strings"

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
		v := affectedView{ID: a.Product, Product: a.Product, Versions: p.versionWords(a)}
		if pr, ok := p.s.lib.Vocab.Product(a.Product); ok {
			v.Product, v.URL = pr.Label.Get(p.Lang), pr.URL
		}
		out = append(out, v)
	}
	return out
}

// versionWords says in the page's language which versions a names:
// "from 1.9.0, fixed in 1.11.2", "1.2.3, 1.2.4".
func (p *pageView) versionWords(a cases.Affected) string {
	var parts []string
	if a.Introduced != "" && a.Introduced != "0" {
		parts = append(parts, fmt.Sprintf(p.T("affected.introduced"), a.Introduced))
	}
	if a.Fixed != "" {
		parts = append(parts, fmt.Sprintf(p.T("affected.fixed"), a.Fixed))
	}
	if a.LastAffected != "" {
		parts = append(parts, fmt.Sprintf(p.T("affected.last"), a.LastAffected))
	}
	if a.Introduced != "" && len(parts) == 0 {
		parts = append(parts, p.T("affected.all"))
	}
	if len(a.Versions) > 0 {
		parts = append(parts, fmt.Sprintf(p.T("affected.versions"), strings.Join(a.Versions, ", ")))
	}
	return strings.Join(parts, p.T("affected.sep"))
}

// actionNote is an action item's kind and status as the Markdown twin
// writes them after its text: " (Prevent · Done)".
func actionNote(a actionView) string {
	if a.KindLabel == "" {
		return " (" + a.StatusLabel + ")"
	}
	return " (" + a.KindLabel + " · " + a.StatusLabel + ")"
}
