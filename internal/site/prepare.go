package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/library"
	"incidentlib/internal/urls"
)

// The prepare page ("my stack", /{lang}/prepare/) turns the parts of a
// reader's stack into the cases that apply and one checklist. The page
// itself holds only the form: its size follows the vocabulary, not the
// library. What each part and each product brings (its newest cases, with
// the facts the script needs, and their checklist as data) is in a file of
// its own, urls.PrepareData, which the script loads when a reader chooses that
// part or gives that product's version. The files are scripts that
// register their value (window.__ilprepare), as the search index's are
// for file://, so that the page works from any host and from the offline
// bundle opened from disk, where fetch is refused. Without script the page
// links each part to its topic's "What to check". The script
// (static/js/prepare.js) reads the choice from the address
// (?components=ingress,cni&ingress-nginx=1.11.2: the facet that shows
// InPrepare, and a product's id with a version) and keeps it there.

// prepareView is the prepare page.
type prepareView struct {
	*pageView
	Param    string // the address parameter of the parts: the InPrepare facet's name
	Parts    []preparePart
	Products []prepareProduct
	// Groups are the checklist's groups in order, separated by spaces,
	// and GroupTitles their headings, for the script's merged checklist.
	Groups      string
	GroupTitles []checkGroupView
	// Statuses are the labels of how far an action got
	// (cases.ActionStatuses), which the script shows beside the cases of
	// a checklist line: the files carry the statuses only.
	Statuses []statusLabel
}

// statusLabel is an action status and how the page names it.
type statusLabel struct{ Name, Label string }

// preparePart is one part of a stack a reader may pick.
type preparePart struct {
	ID    string
	Label string
	Href  string // its topic
	Count string
	Src   string // its file (urls.PrepareData)
}

// prepareProduct is a product some case names as affected.
type prepareProduct struct {
	ID    string
	Label string
	Src   string // its file (urls.PrepareData)
}

// prepareFile is what the file of a part or a product registers: its cases
// and their checklist as data, which the script renders. The checklist's
// lines name their cases by their place in Cases: a case's title and link
// are written once however many lines it brings, where the checklist
// rendered as HTML repeated them on every line (7.7 MB a language at 1,000
// cases, 16 MB for one file at 10,000).
type prepareFile struct {
	Cases  []prepareCase  `json:"cases"`
	Checks []prepareCheck `json:"checks"`
	More   *prepareMore   `json:"more,omitempty"`
}

// prepareCases is how many cases a file of the prepare page holds at most:
// a topic's newest. A file held every case of its topic and its whole
// checklist, so that one grew with the library (16 MB for a component at
// 10,000 cases, a download a reader waits for on every choice, and more
// cases and lines than a reader reads); the newest cases bring the lines
// most cases share as well, since those are shared by the newest too. The
// page says when a part's cases are cut, and links its topic page, which
// lists them all (as the topic's file in the API lists every line).
const prepareCases = 200

// prepareMore says that a file holds only its topic's newest cases: how
// many the topic has, its label and its page, from the prepare page.
type prepareMore struct {
	Total int    `json:"total"`
	Label string `json:"label"`
	Topic string `json:"topic"`
}

// prepareCheck is a line of the checklist of a file's cases
// (library.Checklist.For), as the topic pages show one: its place in the
// library's checklist, its group, its text as HTML, and the cases it came
// from, newest first, as places in the file's Cases with how far each got
// (Status, beside From; left out when every one is a lesson's "").
type prepareCheck struct {
	I      int      `json:"i"`
	Group  string   `json:"group"`
	HTML   string   `json:"html"`
	From   []int    `json:"from"`
	Status []string `json:"status,omitempty"`
}

// prepareCase is a case as the script reads it: its place in the library
// (the files' cases are merged in that order), parts, title, link and
// affected versions.
type prepareCase struct {
	N        int              `json:"n"`
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
// prepares makes the prepare page, the checklist files it loads and the
// "What to check" section of topic pages.
type prepares struct{ *Site }

func prepareFacet() *cases.Facet {
	for _, f := range cases.Facets {
		if f.Shows(cases.InPrepare) {
			return f
		}
	}
	return nil
}

// namedProducts are the vocabulary's products that some case names, in
// the vocabulary's order.
func (s prepares) namedProducts() []cases.Product {
	named := map[string]bool{}
	for _, c := range s.lib.Cases {
		for _, a := range c.Affected {
			named[a.Product] = true
		}
	}
	var out []cases.Product
	for _, pr := range s.lib.Vocab.Products {
		if named[pr.ID] {
			out = append(out, pr)
		}
	}
	return out
}

func (s prepares) prepareView(j Job) (*prepareView, error) {
	p := s.page(j, s.strings.Get(j.Lang, "prepare.title"))
	p.Section = "prepare"
	p.Crumbs = []crumb{{p.T("nav.home"), p.Link(urls.Home(j.Lang))}, {p.Title, ""}}
	p.Description = s.strings.Get(j.Lang, "prepare.intro")
	v := &prepareView{pageView: p, Groups: strings.Join(library.CheckGroups, " ")}
	for _, g := range library.CheckGroups {
		v.GroupTitles = append(v.GroupTitles, checkGroupView{Name: g, Title: p.groupTitle(g)})
	}
	for _, st := range cases.ActionStatuses {
		v.Statuses = append(v.Statuses, statusLabel{st, p.T("action.status." + st)})
	}
	f := prepareFacet()
	if f == nil {
		return v, nil
	}
	v.Param = f.Name
	if ft := s.topics[f.Name]; ft != nil {
		for _, t := range ft.Topics {
			v.Parts = append(v.Parts, preparePart{
				ID: t.ID, Label: p.term(f, t.ID).Label, Href: p.Link(urls.Topic(j.Lang, f.Name, t.ID, 1)),
				Count: l10n.Cases(j.Lang, len(t.Cases)), Src: p.Link(urls.PrepareData(j.Lang, f.Name, t.ID)),
			})
		}
	}
	for _, pr := range s.namedProducts() {
		v.Products = append(v.Products, prepareProduct{pr.ID, pr.Label.Get(j.Lang), p.Link(urls.PrepareData(j.Lang, cases.Products.Name, pr.ID))})
	}
	return v, nil
}

// PrepareJob returns the job of the prepare page's file of topic t of
// facet in lang, when that facet's topics have one: the parts a reader
// may choose (the facet that shows InPrepare) and the products.
func PrepareJob(lang, facet string, t *library.Topic) (Job, bool) {
	if f := prepareFacet(); f == nil || facet != f.Name && facet != cases.Products.Name {
		return Job{}, false
	}
	return Job{Kind: KindPrepareData, Lang: lang, Path: urls.PrepareData(lang, facet, t.ID), Topic: t, Facet: facet}, true
}

// prepareDataJobs lists the files of the prepare page's parts and products.
func (s prepares) prepareDataJobs() []Job {
	var jobs []Job
	for _, lang := range cases.Languages {
		for _, name := range cases.FacetNames() {
			ft := s.topics[name]
			if ft == nil {
				continue
			}
			for _, t := range ft.Topics {
				if j, ok := PrepareJob(lang, name, t); ok {
					jobs = append(jobs, j)
				}
			}
		}
	}
	return jobs
}

// prepareData writes the file of a part or a product (PrepareJob): a
// script that registers its prepareFile under "facet/id". Its links are
// relative to the prepare page, into which the script puts them.
func (s prepares) prepareData(j Job, w io.Writer) error {
	f := prepareFacet()
	if f == nil || j.Topic == nil {
		return fmt.Errorf("%s: no facet is offered on the prepare page, or no topic", j.Path)
	}
	cs := j.Topic.Cases // newest first
	page := Job{Kind: KindPrepare, Lang: j.Lang, Path: urls.Prepare(j.Lang)}
	root := s.rootOf(page)
	p := s.page(page, "")
	// link is a site path's link from the prepare page, into which the
	// script puts the file's links.
	link := func(path string) string { return root + strings.TrimPrefix(p.Link(path), rootMark) }
	var file prepareFile
	if len(cs) > prepareCases {
		file.More = &prepareMore{Total: len(cs), Label: j.Topic.Label.Get(j.Lang), Topic: link(urls.Topic(j.Lang, j.Facet, j.Topic.ID, 1))}
		cs = cs[:prepareCases]
	}
	file.Cases = make([]prepareCase, 0, len(cs))
	for _, c := range cs {
		n, listed := s.caseIndex[c]
		if !listed {
			n = -1
		}
		pc := prepareCase{N: n, ID: c.ID, Title: localizeLine(c.Title, j.Lang).Text, Href: link(urls.Case(j.Lang, c.ID)), Parts: append([]string{}, f.Terms(c)...)}
		for _, a := range c.Affected {
			pc.Affected = append(pc.Affected, prepareVersion{a.Product, a.Introduced, a.Fixed, a.LastAffected, a.Versions})
		}
		file.Cases = append(file.Cases, pc)
	}
	var err error
	if file.Checks, err = s.prepareChecks(j, cs, root); err != nil {
		return err
	}
	key, err := json.Marshal(j.Facet + "/" + j.Topic.ID)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "window.__ilprepare=window.__ilprepare||{};__ilprepare[%s]=", key); err != nil {
		return err
	}
	// The file is a script of its own, never inside a page's <script>
	// element, so "</" needs no escape, and the lines' HTML keeps its
	// < and > (\u003c, six bytes each, were a tenth of the file).
	// encoding/json still escapes U+2028 and U+2029, which older
	// JavaScript does not allow in a string.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(file); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	b.WriteString(";\n")
	_, err = w.Write(b.Bytes())
	return err
}

// prepareChecks is the checklist of cs, the cases of a prepare file in
// their order there, as the file carries it; root is the way from the
// prepare page to the site root.
func (s prepares) prepareChecks(j Job, cs []*cases.Case, root string) ([]prepareCheck, error) {
	at := make(map[*cases.Case]int, len(cs)) // a case's place in cs
	for i, c := range cs {
		at[c] = i
	}
	var out []prepareCheck
	var html, resolved bytes.Buffer
	for _, g := range s.model.Checklist().For(cs) {
		for _, l := range g.Items {
			html.Reset()
			resolved.Reset()
			if err := s.theme.execute(&html, "list", "text", localize(l.Item.Text, j.Lang)); err != nil {
				return nil, err
			}
			if err := writeResolved(&resolved, html.Bytes(), root); err != nil {
				return nil, err
			}
			line := prepareCheck{I: l.Item.Index, Group: g.Name, HTML: resolved.String(), From: make([]int, len(l.From))}
			for k, from := range l.From {
				i, ok := at[from.Case]
				if !ok {
					return nil, fmt.Errorf("%s: checklist line %d comes from %s, which is not among the file's cases", j.Path, l.Item.Index, from.Case.ID)
				}
				line.From[k] = i
				if from.Status != "" && line.Status == nil {
					line.Status = make([]string, len(l.From))
				}
				if line.Status != nil {
					line.Status[k] = from.Status
				}
			}
			out = append(out, line)
		}
	}
	return out, nil
}

// prepareCallout is the callout box with a link to the prepare page, where
// site.json's callout names no link of its own: with the parts of ids
// chosen (a case's components, a topic's own term), under the catalogue's
// label.
func (s prepares) prepareCallout(p *pageView, ids []string, label string) calloutView {
	co := s.callout(p.Lang)
	f := prepareFacet()
	if co.Link != "" || f == nil || (co.Title.Text == "" && co.Text.Src == "") {
		return co
	}
	co.Link = p.Link(urls.Prepare(p.Lang)) + urls.Query(urls.Param{Key: f.Name, Values: ids})
	co.Label = p.T(label)
	return co
}
