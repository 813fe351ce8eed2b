package site

import (
	"fmt"
	"html/template"
	"strings"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/markup"
	"incidentlib/internal/urls"
)

// FacetView lists every term of a facet with its count.
type FacetView struct {
	*Page
	Intro  string
	Terms  []FacetTerm
	Facets []NavItem
}

// FacetTerm is one term on a facet page.
type FacetTerm struct {
	Label string
	Href  string
	Count string
	N     int
	Desc  plainTxt
}

func (s *Site) facetList(p *Page) []NavItem {
	var out []NavItem
	for _, f := range cases.Facets {
		out = append(out, NavItem{f, p.T("facet." + f), p.Link(urls.FacetIndex(p.Lang, f))})
	}
	return out
}

func (s *Site) facetView(j Job) *FacetView {
	p := s.page(j, s.strings.Get(j.Lang, "facet."+j.Facet))
	p.Section = j.Facet
	p.Crumbs = []Crumb{{p.T("nav.home"), p.Link(urls.Home(j.Lang))}, {p.Title, ""}}
	v := &FacetView{Page: p, Intro: p.T("facetintro." + j.Facet), Facets: s.facetList(p)}
	for _, t := range s.facets[j.Facet].Topics {
		v.Terms = append(v.Terms, FacetTerm{
			Label: t.Label.Get(j.Lang), Href: p.Link(urls.Topic(j.Lang, j.Facet, t.ID, 1)),
			Count: l10n.Cases(j.Lang, len(t.Cases)), N: len(t.Cases), Desc: plainText(t.Description, j.Lang),
		})
	}
	return v
}

// HomeView is a language's home page.
type HomeView struct {
	*Page
	Intro   string
	Counts  []HomeCount
	Newest  []CaseLink
	Largest []HomeFacet
	AllLink string
}

// HomeCount is one figure on the home page, with the words around it as
// each language counts things: "14 cases", "사례 14건", "조직 14곳".
type HomeCount struct {
	Before string
	Value  string
	After  string
	Href   string
}

// homeCount splits the string home.count_<what> around its number.
func homeCount(p *Page, what string, n int, href string) HomeCount {
	before, after, _ := strings.Cut(p.T("home.count_"+what), "%s")
	return HomeCount{Before: before, Value: l10n.Number(n), After: after, Href: href}
}

// HomeFacet is a facet's largest topics.
type HomeFacet struct {
	Title  string
	Href   string
	Topics []FacetTerm
}

// homeNewest is how many cases the home page shows.
const homeNewest = 6

func (s *Site) homeView(j Job) (*HomeView, error) {
	lang := j.Lang
	p := s.page(j, s.lib.Site.Title.Get(lang))
	p.Section = "home"
	v := &HomeView{Page: p, Intro: s.lib.Site.Description.Get(lang), AllLink: p.Link(urls.Cases(lang, 1))}
	v.Counts = []HomeCount{homeCount(p, "cases", len(s.lib.Cases), p.Link(urls.Cases(lang, 1)))}
	for _, f := range []string{"orgs", "components", "root-causes"} {
		v.Counts = append(v.Counts, homeCount(p, f, len(s.facets[f].Topics), p.Link(urls.FacetIndex(lang, f))))
	}
	for _, c := range s.lib.Cases[:min(homeNewest, len(s.lib.Cases))] {
		v.Newest = append(v.Newest, s.caseLink(p, c, ""))
	}
	for _, f := range []string{"components", "symptoms", "root-causes", "contributing", "domains", "orgs"} {
		hf := HomeFacet{Title: p.T("facet." + f), Href: p.Link(urls.FacetIndex(lang, f))}
		for _, t := range s.facets[f].Largest(5) {
			hf.Topics = append(hf.Topics, FacetTerm{Label: t.Label.Get(lang), Href: p.Link(urls.Topic(lang, f, t.ID, 1)), Count: l10n.Count(lang, len(t.Cases)), N: len(t.Cases)})
		}
		v.Largest = append(v.Largest, hf)
	}
	return v, nil
}

// RootView is the language chooser at /.
type RootView struct {
	*Page
	Choices []RootChoice
}

// RootChoice is one language on the chooser.
type RootChoice struct {
	Lang, Name, Title, Desc, Href string
}

func (s *Site) rootView(j Job) *RootView {
	p := s.page(j, s.lib.Site.Title.En)
	p.Lang = "en"
	p.Canonical = s.base
	p.Description = s.lib.Site.Description.Get("en")
	p.Alternates = []Alternate{{"en", s.base + "en/"}, {"ko", s.base + "ko/"}, {"x-default", s.base}}
	v := &RootView{Page: p}
	for _, lang := range cases.Languages {
		v.Choices = append(v.Choices, RootChoice{
			Lang: lang, Name: s.strings.Get(lang, "lang.name"), Title: s.lib.Site.Title.Get(lang),
			Desc: s.lib.Site.Description.Get(lang), Href: p.Link(urls.Home(lang)),
		})
	}
	return v
}

// NotFoundView is the 404 page, in both languages at once.
type NotFoundView struct {
	*Page
	Parts []RootChoice
}

func (s *Site) notFoundView(j Job) *NotFoundView {
	p := s.page(j, s.strings.Get("en", "notfound.title"))
	p.Lang = "en"
	p.Noindex = true
	v := &NotFoundView{Page: p}
	p.Description = s.strings.Get("en", "notfound.text")
	for _, lang := range cases.Languages {
		// Its links resolve from the site's root path (see Site.rootOf).
		v.Parts = append(v.Parts, RootChoice{Lang: lang, Name: s.strings.Get(lang, "notfound.title"), Desc: s.strings.Get(lang, "notfound.text"), Title: s.strings.Get(lang, "notfound.home"), Href: p.Link(urls.Home(lang))})
	}
	return v
}

// SearchView is the search page.
type SearchView struct {
	*Page
	Facets []NavItem
}

func (s *Site) searchView(j Job) *SearchView {
	p := s.page(j, s.strings.Get(j.Lang, "search.title"))
	p.Section = "search"
	p.Crumbs = []Crumb{{p.T("nav.home"), p.Link(urls.Home(j.Lang))}, {p.Title, ""}}
	return &SearchView{Page: p, Facets: s.facetList(p)}
}

// ProseView is a prose page.
type ProseView struct {
	*Page
	Body     template.HTML
	BodyLang string
	Missing  bool
	TOC      []markup.Heading
}

func (s *Site) proseView(j Job) (*ProseView, error) {
	var pg *cases.Page
	for i := range s.lib.Pages {
		if s.lib.Pages[i].Slug == j.Slug {
			pg = &s.lib.Pages[i]
		}
	}
	if pg == nil {
		return nil, fmt.Errorf("no page %q", j.Slug)
	}
	src, written := pg.Body.In(j.Lang)
	title, body, toc := markup.Prose(src)
	if title == "" {
		title = pg.Slug
	}
	p := s.page(j, title)
	p.Section = pg.Slug
	p.Crumbs = []Crumb{{p.T("nav.home"), p.Link(urls.Home(j.Lang))}, {title, ""}}
	if written != j.Lang {
		p.TitleLang = written
	}
	return &ProseView{Page: p, Body: template.HTML(body), BodyLang: written, Missing: written != j.Lang, TOC: toc}, nil
}

// MCPTools are the tools of "incidentlib mcp" (package mcpserver), which
// the API page and case pages name; a test of that package holds the two
// lists together.
var MCPTools = []string{"search_incidents", "get_incident", "list_incidents", "get_topic", "vocab"}

// APIDocView documents the static JSON API and the MCP server.
type APIDocView struct {
	*Page
	Base     string
	Example  string
	MCPURL   string // a hosted server named in site.json, or ""
	Files    []APIFile
	MCPTools []MCPTool
	// What site.json says of the hosted server: its note and tools.
	MCPNote   Txt
	HostTools []string
}

// MCPTool is one tool of the MCP server.
type MCPTool struct {
	Name string
	Desc string
}

// APIFile is one file of the API.
type APIFile struct {
	Path string
	Href string
	Desc string
}

func (s *Site) apiDocView(j Job) *APIDocView {
	p := s.page(j, s.strings.Get(j.Lang, "api.title"))
	p.Section = "api"
	p.Crumbs = []Crumb{{p.T("nav.home"), p.Link(urls.Home(j.Lang))}, {p.Title, ""}}
	mcp := s.lib.Site.MCP
	v := &APIDocView{Page: p, Base: s.base + urls.APIDir, MCPURL: mcp.URL, MCPNote: s.text(mcp.Note, j.Lang), HostTools: mcp.Tools}
	ex := "IL-0000"
	if len(s.lib.Cases) > 0 {
		ex = s.lib.Cases[0].ID
	}
	v.Example = ex
	topicEx := "ingress"
	if ts := s.facets["components"].Topics; len(ts) > 0 {
		topicEx = ts[0].ID
	}
	for _, f := range []struct{ path, key string }{
		{urls.APICases, "api.cases"},
		{urls.APICase(ex), "api.case"},
		{urls.APISimilar(ex), "api.similar"},
		{urls.APIVocab, "api.vocab"},
		{urls.APITopic("components", topicEx), "api.topic"},
		{urls.APISchema, "api.schema"},
	} {
		v.Files = append(v.Files, APIFile{Path: "/" + f.path, Href: p.Link(f.path), Desc: p.T(f.key)})
	}
	for _, name := range MCPTools {
		v.MCPTools = append(v.MCPTools, MCPTool{Name: name, Desc: p.T("api.tool." + name)})
	}
	return v
}

// view builds the typed view of a page job and names its template.
func (s *Site) view(j Job) (any, string, error) {
	switch j.Kind {
	case KindCase:
		return s.caseView(j), "case", nil
	case KindCases, KindTopic:
		v, err := s.listView(j)
		return v, "list", err
	case KindFacet:
		return s.facetView(j), "facet", nil
	case KindHome:
		v, err := s.homeView(j)
		return v, "home", err
	case KindRoot:
		return s.rootView(j), "root", nil
	case KindSearch:
		return s.searchView(j), "search", nil
	case KindProse:
		v, err := s.proseView(j)
		return v, "prose", err
	case KindNotFound:
		return s.notFoundView(j), "notfound", nil
	case KindAPIDoc:
		return s.apiDocView(j), "apidoc", nil
	}
	return nil, "", fmt.Errorf("unknown job kind %d", j.Kind)
}
