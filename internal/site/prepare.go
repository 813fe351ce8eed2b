package site

import (
	"encoding/json"
	"html/template"
	"strings"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/library"
	"incidentlib/internal/urls"
)

// The prepare page ("my stack", /{lang}/prepare/) turns the parts of a
// reader's stack into the cases that apply and one checklist. The page
// holds everything it needs: the checklist of every part, which is what it
// shows without script, and the facts its script needs to combine them (a
// script element of JSON), so that it works from any host and from the
// offline bundle opened from disk, with no request. The script
// (static/js/prepare.js) reads the choice from the address
// (?components=ingress,cni&ingress-nginx=1.11.2: the facet that shows
// InPrepare, and a product's id with a version) and keeps it there.

// prepareView is the prepare page.
type prepareView struct {
	*pageView
	Param    string // the address parameter of the parts: the InPrepare facet's name
	Parts    []preparePart
	Products []prepareProduct
	Data     template.HTML // the script element the page's script reads
	// Groups are the checklist's groups in order, separated by spaces,
	// and GroupTitles their headings, for the script's merged checklist.
	Groups      string
	GroupTitles []checkGroupView
}

// preparePart is one part of a stack a reader may pick, with its checklist.
type preparePart struct {
	ID     string
	Label  string
	Href   string // its topic
	Count  string
	Groups []checkGroupView
}

// prepareProduct is a product some case names as affected.
type prepareProduct struct {
	ID    string
	Label string
}

// prepareData is what the page's script reads: each case's parts, title,
// link and affected versions.
type prepareData struct {
	Cases []prepareCase `json:"cases"`
}

type prepareCase struct {
	ID       string           `json:"id"`
	Title    string           `json:"title"`
	Href     string           `json:"href"`
	Parts    []string         `json:"parts"`
	Affected []prepareVersion `json:"affected,omitempty"`
}

// prepareVersion is an Affected as the script reads it.
type prepareVersion struct {
	Product      string   `json:"product"`
	Introduced   string   `json:"introduced,omitempty"`
	Fixed        string   `json:"fixed,omitempty"`
	LastAffected string   `json:"last_affected,omitempty"`
	Versions     []string `json:"versions,omitempty"`
}

// prepareFacet is the facet whose terms the prepare page offers.
func prepareFacet() *cases.Facet {
	for _, f := range cases.Facets {
		if f.Shows(cases.InPrepare) {
			return f
		}
	}
	return nil
}

func (s *Site) prepareView(j Job) (*prepareView, error) {
	p := s.page(j, s.strings.Get(j.Lang, "prepare.title"))
	p.Section = "prepare"
	p.Crumbs = []crumb{{p.T("nav.home"), p.Link(urls.Home(j.Lang))}, {p.Title, ""}}
	p.Description = s.strings.Get(j.Lang, "prepare.intro")
	v := &prepareView{pageView: p, Groups: strings.Join(library.CheckGroups, " ")}
	for _, g := range library.CheckGroups {
		v.GroupTitles = append(v.GroupTitles, checkGroupView{Name: g, Title: p.groupTitle(g)})
	}
	f := prepareFacet()
	if f == nil {
		return v, nil
	}
	v.Param = f.Name
	cl := s.model.Checklist()
	if ft := s.topics[f.Name]; ft != nil {
		for _, t := range ft.Topics {
			v.Parts = append(v.Parts, preparePart{
				ID: t.ID, Label: p.term(f, t.ID).Label, Href: p.Link(urls.Topic(j.Lang, f.Name, t.ID, 1)),
				Count: l10n.Cases(j.Lang, len(t.Cases)), Groups: p.checklist(cl.For(t.Cases)),
			})
		}
	}
	named := map[string]bool{}
	data := prepareData{Cases: make([]prepareCase, 0, len(s.lib.Cases))}
	for _, c := range s.lib.Cases {
		pc := prepareCase{ID: c.ID, Title: localizeLine(c.Title, j.Lang).Text, Href: p.Link(urls.Case(j.Lang, c.ID)), Parts: append([]string{}, f.Terms(c)...)}
		for _, a := range c.Affected {
			named[a.Product] = true
			pc.Affected = append(pc.Affected, prepareVersion{a.Product, a.Introduced, a.Fixed, a.LastAffected, a.Versions})
		}
		data.Cases = append(data.Cases, pc)
	}
	for _, pr := range s.lib.Vocab.Products {
		if named[pr.ID] {
			v.Products = append(v.Products, prepareProduct{pr.ID, pr.Label.Get(j.Lang)})
		}
	}
	b, err := json.Marshal(data) // escapes <, > and &: nothing in it ends the element
	if err != nil {
		return nil, err
	}
	v.Data = template.HTML(`<script type="application/json" id="prepare-data">` + string(b) + `</script>`)
	return v, nil
}

// prepareCallout is the callout box with a link to the prepare page, where
// site.json's callout names no link of its own: with the parts of ids
// chosen (a case's components, a topic's own term), under the catalogue's
// label.
func (s *Site) prepareCallout(p *pageView, ids []string, label string) calloutView {
	co := s.callout(p.Lang)
	f := prepareFacet()
	if co.Link != "" || f == nil || (co.Title.Text == "" && co.Text.Src == "") {
		return co
	}
	co.Link = p.Link(urls.Prepare(p.Lang)) + urls.Query(urls.Param{Key: f.Name, Values: ids})
	co.Label = p.T(label)
	return co
}
