package site

import (
	"html/template"
	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/urls"
	"sort"
	"strings"
)

// homeView is a language's home page.
type homeView struct {
	*pageView
	Intro   string
	Counts  []homeCount
	Newest  []caseLink
	Largest []homeFacet
	AllLink string
	// Stats is the statistics of every case, drawn as a topic page draws
	// its own (template "stats" of list.html): the commonest terms, cases
	// per year and the times to detect and resolve case by case.
	Stats template.HTML
}

// homeCount is one figure on the home page, with the words around it as
// each language counts things: "14 cases", "사례 14건", "조직 14곳".
type homeCount struct {
	Before string
	Value  string
	After  string
	Href   string
}

// newHomeCount splits the string home.count_<what> around its number.
func newHomeCount(p *pageView, what string, n int, href string) homeCount {
	before, after, _ := strings.Cut(p.T("home.count_"+what), "%s")
	return homeCount{Before: before, Value: l10n.Number(n), After: after, Href: href}
}

// homeFacet is a facet's largest topics.
type homeFacet struct {
	Title  string
	Href   string
	Topics []facetTerm
}

// homeCounted returns the facets counted at the top of the home page, in
// the order of their HomeCount.
func homeCounted() []*cases.Facet {
	var out []*cases.Facet
	for _, f := range cases.Facets {
		if f.HomeCount > 0 {
			out = append(out, f)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].HomeCount < out[j].HomeCount })
	return out
}

// homeNewest is how many cases the home page shows.
const homeNewest = 6

func (s views) homeView(j Job) (*homeView, error) {
	lang := j.Lang
	p := s.page(j, s.lib.Settings.Title.Get(lang))
	p.Section = "home"
	p.OwnSearch = true
	v := &homeView{pageView: p, Intro: s.lib.Settings.Description.Get(lang), AllLink: p.Link(urls.Cases(lang, 1))}
	v.Counts = []homeCount{newHomeCount(p, "cases", len(s.lib.Cases), p.Link(urls.Cases(lang, 1)))}
	for _, f := range homeCounted() {
		v.Counts = append(v.Counts, newHomeCount(p, f.Name, len(s.topics[f.Name].Topics), p.Link(urls.FacetIndex(lang, f.Name))))
	}
	for _, c := range s.lib.Cases[:min(homeNewest, len(s.lib.Cases))] {
		l, err := p.caseLink(c, "")
		if err != nil {
			return nil, err
		}
		v.Newest = append(v.Newest, l)
	}
	for _, f := range cases.Facets {
		if !f.Shows(cases.OnHome) {
			continue
		}
		hf := homeFacet{Title: f.Label.Get(lang), Href: p.Link(urls.FacetIndex(lang, f.Name))}
		for _, t := range s.topics[f.Name].Largest(5) {
			hf.Topics = append(hf.Topics, facetTerm{Label: t.Label.Get(lang), Href: p.Link(urls.Topic(lang, f.Name, t.ID, 1)), Count: l10n.Count(lang, len(t.Cases)), N: len(t.Cases)})
		}
		v.Largest = append(v.Largest, hf)
	}
	if sv := p.statsView(s.model.AllStats(), "", ""); sv != nil {
		sv.Heading = p.T("home.stats")
		sv.Durations = p.durationCharts(s.lib.Cases, "dist-")
		if err := (stats{s.Site}).renderStats(lang, sv); err != nil {
			return nil, err
		}
		v.Stats = sv.HTML + sv.DistHTML
	}
	return v, nil
}

// rootView is the language chooser at /.
type rootView struct {
	*pageView
	Choices []rootChoice
}

// rootChoice is one language on the chooser.
type rootChoice struct {
	Lang, Name, Title, Desc, Href string
	NavLabel                      string
	Nav                           []navItem // the language's header links
}

func (s views) rootView(j Job) *rootView {
	p := s.page(j, s.lib.Settings.Title.En)
	p.Lang = "en"
	p.Both = true
	p.Canonical = s.base
	p.Description = s.lib.Settings.Description.Get("en")
	p.Alternates = []alternate{{"en", s.URL(urls.Home("en"))}, {"ko", s.URL(urls.Home("ko"))}, {"x-default", s.URL("")}}
	v := &rootView{pageView: p}
	for _, lang := range cases.Languages {
		v.Choices = append(v.Choices, rootChoice{
			Lang: lang, Name: s.strings.Get(lang, "lang.name"), Title: s.lib.Settings.Title.Get(lang),
			Desc: s.lib.Settings.Description.Get(lang), Href: p.Link(urls.Home(lang)),
			NavLabel: s.strings.Get(lang, "nav.main"), Nav: s.nav[lang],
		})
	}
	return v
}
