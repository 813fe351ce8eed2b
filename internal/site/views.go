package site

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/markup"
	"incidentlib/internal/related"
	"incidentlib/internal/urls"
)

// Page is what every page view has: its language, where it is, its title
// and the links around it. Templates call its methods to translate strings
// and to make links relative to the page.
type Page struct {
	Lang        string
	Path        string
	Title       string
	TitleLang   string // set when the title is shown in the other language
	Description string
	Canonical   string
	Alternates  []Alternate
	Switch      string // link to the same page in the other language
	SwitchLang  string
	Crumbs      []Crumb
	Section     string // which header section is current
	Noindex     bool
	Feed        string
	// JSONLD is the page's schema.org data as a whole script element
	// (case pages only); see jsonLD.
	JSONLD template.HTML
	s      *Site
}

// Alternate is an hreflang link.
type Alternate struct {
	Lang string
	Href string
}

// Crumb is one step of the breadcrumbs.
type Crumb struct {
	Label string
	Href  string
}

// CallMethod lets the template executor call the page's methods that every
// page calls, many times, without reflection (see htmlexec.Caller). Views
// embed *Page and define no methods of these names, so the promoted method
// is the one a template means.
func (p *Page) CallMethod(name, arg string) (any, bool) {
	switch name {
	case "T":
		return p.T(arg), true
	case "Link":
		return p.Link(arg), true
	case "Offline":
		return p.Offline(), true
	case "SiteTitle":
		return p.SiteTitle(), true
	case "Home":
		return p.Home(), true
	case "SearchRoot":
		return p.SearchRoot(), true
	case "SearchPage":
		return p.SearchPage(), true
	}
	return nil, false
}

// T returns a UI string in the page's language.
func (p *Page) T(key string) string { return p.s.strings.Get(p.Lang, key) }

// Link returns a link from this page to a site path.
func (p *Page) Link(target string) string { return markedLink(target, p.s.opt.Offline) }

// Home returns the link to this language's home page.
func (p *Page) Home() string { return p.Link(urls.Home(p.Lang)) }

// Nav lists the header's sections.
func (p *Page) Nav() []NavItem { return p.s.nav[p.Lang] }

// FooterLinks lists prose pages and the API for the footer.
func (p *Page) FooterLinks() []NavItem { return p.s.footer[p.Lang] }

// NavItem is a header or footer link.
type NavItem struct {
	ID    string
	Label string
	Href  string
}

// navigation computes the header and footer links of a language once: with
// marked links they are the same on every page.
func (s *Site) navigation(lang string) (nav, footer []NavItem) {
	p := &Page{Lang: lang, s: s}
	nav = []NavItem{
		{"cases", p.T("nav.cases"), p.Link(urls.Cases(lang, 1))},
		{"components", p.T("facet.components"), p.Link(urls.FacetIndex(lang, "components"))},
		{"symptoms", p.T("facet.symptoms"), p.Link(urls.FacetIndex(lang, "symptoms"))},
		{"root-causes", p.T("facet.root-causes"), p.Link(urls.FacetIndex(lang, "root-causes"))},
		{"orgs", p.T("facet.orgs"), p.Link(urls.FacetIndex(lang, "orgs"))},
		{"search", p.T("nav.search"), p.Link(urls.Search(lang))},
	}
	for _, pg := range s.lib.Pages {
		if pg.Slug == "about" {
			nav = append(nav, NavItem{"about", p.T("nav.about"), p.Link(urls.Prose(lang, "about"))})
		}
	}
	for _, pg := range s.lib.Pages {
		title, _, _ := markup.Prose(pg.Body.Get(lang))
		if title == "" {
			title = pg.Slug
		}
		footer = append(footer, NavItem{pg.Slug, title, p.Link(urls.Prose(lang, pg.Slug))})
	}
	footer = append(footer, NavItem{"api", p.T("nav.api"), p.Link(urls.APIDoc(lang))})
	footer = append(footer, NavItem{"feed", p.T("nav.feed"), p.Link(urls.Feed(lang))})
	for _, l := range s.lib.Site.Links {
		footer = append(footer, NavItem{"", l.Label.Get(lang), l.URL})
	}
	return nav, footer
}

// Asset returns the link and integrity value of a static file.
func (p *Page) Asset(name string) AssetRef {
	a, ok := p.s.assets[name]
	if !ok {
		return AssetRef{Href: "missing-asset-" + name}
	}
	return AssetRef{Href: p.Link(a.Path), SRI: a.SRI}
}

// AssetRef is a link to a static file with its integrity value.
type AssetRef struct {
	Href string
	SRI  string
}

// SiteTitle is the library's name in the page's language.
func (p *Page) SiteTitle() string { return p.s.lib.Site.Title.Get(p.Lang) }

// SearchPage is the link to the search page of the page's language, where
// the search forms send their query.
func (p *Page) SearchPage() string { return p.Link(urls.Search(p.Lang)) }

// SearchRoot is the relative link to the search index folder.
func (p *Page) SearchRoot() string { return markedLink(urls.SearchDir, false) } // a folder the script reads, never a page

// Offline reports whether this is a build for opening from disk.
func (p *Page) Offline() bool { return p.s.opt.Offline }

func (s *Site) page(j Job, title string) *Page {
	p := &Page{Lang: j.Lang, Path: j.Path, Title: title, s: s}
	if j.Lang != "" {
		other := cases.Other(j.Lang)
		p.Switch = markedLink(urls.Twin(j.Path, j.Lang), s.opt.Offline)
		p.SwitchLang = other
		p.Canonical = s.base + j.Path
		p.Alternates = []Alternate{{"en", s.base + urls.Twin(j.Path, "ko")}, {"ko", s.base + urls.Twin(j.Path, "en")}}
		if j.Lang == "en" {
			p.Alternates[0].Href = s.base + j.Path
		} else {
			p.Alternates[1].Href = s.base + j.Path
		}
		p.Feed = markedLink(urls.Feed(j.Lang), s.opt.Offline)
		p.Description = s.lib.Site.Description.Get(j.Lang)
	}
	return p
}

// Txt is a text in the page's language, or in the other language with a
// mark when the translation is missing.
type Txt struct {
	HTML    template.HTML
	Lang    string
	Missing bool
}

func (s *Site) text(t cases.Text, lang string) Txt {
	src, written := t.In(lang)
	return Txt{HTML: template.HTML(markup.Text(src)), Lang: written, Missing: written != lang && src != ""}
}

// plainTxt is a one-line text without Markdown, such as a title.
type plainTxt struct {
	Text    string
	Lang    string
	Missing bool
}

func plainText(t cases.Text, lang string) plainTxt {
	src, written := t.In(lang)
	return plainTxt{Text: src, Lang: written, Missing: written != lang && src != ""}
}

// TermLink is a controlled term shown by its label, linking to its topic.
type TermLink struct {
	ID    string
	Label string
	Href  string
}

func (s *Site) term(p *Page, field, id string) TermLink {
	t, _ := s.lib.Vocab.Term(field, id)
	label := t.Label.Get(p.Lang)
	if label == "" {
		label = id
	}
	return TermLink{ID: id, Label: label, Href: p.Link(urls.Topic(p.Lang, urls.FacetOfField(field), id, 1))}
}

func (s *Site) terms(p *Page, field string, ids []string) []TermLink {
	out := make([]TermLink, len(ids))
	for i, id := range ids {
		out[i] = s.term(p, field, id)
	}
	return out
}

// Fact is one row of a case's facts table. Empty Value means unknown.
type Fact struct {
	Label string
	Value string
	Link  string
	Lang  string // set when the value is in another language than the page
}

// SourceView is one source of a case.
type SourceView struct {
	URL      string
	Host     string
	Kind     string
	Archived string
}

// CaseLink is a related case as listed under a reason.
type CaseLink struct {
	Why   string
	ID    string
	Title plainTxt
	Org   string
	Year  int
	// YearNote says what the year is the year of when it is not the
	// incident's: see ifPublished.
	YearNote string
	Href     string
	Sev      string
}

// ifPublished returns the UI string key in the page's language when c is
// dated by the talk or post that told it rather than by the incident, and
// "" when the date is the incident's: lists mark only the dates that are not
// what a reader assumes.
func ifPublished(p *Page, c *cases.Case, key string) string {
	if c.DateKind == "published" {
		return p.T(key)
	}
	return ""
}

// caseLink is c as a line in a short list of cases: the related cases of a
// case page (why says what the two share) and the home page's newest cases.
func (s *Site) caseLink(p *Page, c *cases.Case, why string) CaseLink {
	return CaseLink{
		Why: why, ID: c.ID, Title: plainText(c.Title, p.Lang), Org: c.Org, Year: c.Date.Year, YearNote: ifPublished(p, c, "datekind.published.note"),
		Href: p.Link(urls.Case(p.Lang, c.ID)), Sev: sevLabel(s, p, c),
	}
}

// RelGroupView is related cases that share one reason.
type RelGroupView struct {
	Reason string
	Cases  []CaseLink
}

// CaseView is the case page.
type CaseView struct {
	*Page
	C            *cases.Case
	WrittenBy    string
	TitleT       plainTxt
	Date         string // ISO, for the datetime attribute
	DateShort    string // the kicker's date: ISO when whole, else in words ("2019년 4월")
	DateLong     string
	DateKind     string
	Published    bool // the date is when the source was published, not when the incident happened
	OrgLink      string
	YearLink     string
	Domains      []TermLink
	Summary      Txt
	Facts        []Fact
	Symptoms     []TermLink
	SymptomsText Txt
	RootCause    TermLink
	Trigger      Txt
	Components   []TermLink
	Contributing []TermLink
	Detection    Txt
	Remediation  []Txt
	ActionItems  []Txt
	Lessons      *Txt
	Sources      []SourceView
	Docs         []string
	Related      []RelGroupView
	ReviewedAt   string
	Updated      string
	Callout      CalloutView
	JSON         string
	Similar      string
	Markdown     string
	MCP          cases.MCP
	MCPNote      Txt
	MCPTools     []string
	APIDoc       string // the page that explains the API and the MCP server
}

// CalloutView is the configurable box.
type CalloutView struct {
	Title plainTxt
	Text  Txt
	Link  string
	Label string
}

func (s *Site) dur(lang string, d *cases.Duration) string {
	if d == nil {
		return ""
	}
	return l10n.Duration(lang, int(*d))
}

func known(v string) string {
	if v == "unknown" {
		return ""
	}
	return v
}

// shortDate writes a whole date as the seeds' kickers do (2024-08-27) and a
// partial one in words, since "2019-04" reads as a code, not a month.
func shortDate(lang string, d cases.Date) string {
	if d.Day != 0 {
		return d.String()
	}
	return l10n.Date(lang, d.Year, d.Month, d.Day)
}

// textFact is a fact written in words; when the page's language is missing
// it shows the other one, marked.
func textFact(label string, t cases.Text, lang string) Fact {
	v := plainText(t, lang)
	f := Fact{Label: label, Value: known(v.Text)}
	if v.Missing && f.Value != "" {
		f.Lang = v.Lang
	}
	return f
}

func (s *Site) caseView(j Job) *CaseView {
	c, lang := j.Case, j.Lang
	title := plainText(c.Title, lang)
	p := s.page(j, title.Text)
	if title.Missing {
		p.TitleLang = title.Lang
	}
	p.Section = "cases"
	p.Crumbs = []Crumb{{p.T("nav.home"), p.Link(urls.Home(lang))}, {p.T("nav.cases"), p.Link(urls.Cases(lang, 1))}, {c.ID, ""}}
	p.Description = firstSentence(c.Summary, lang)
	v := &CaseView{
		Page:         p,
		C:            c,
		TitleT:       title,
		Date:         c.Date.String(),
		DateShort:    shortDate(lang, c.Date),
		DateLong:     l10n.Date(lang, c.Date.Year, c.Date.Month, c.Date.Day),
		DateKind:     p.T("datekind." + c.DateKind),
		Published:    c.DateKind == "published",
		OrgLink:      p.Link(urls.Topic(lang, "orgs", c.OrgSlug, 1)),
		YearLink:     p.Link(urls.Topic(lang, "years", strconv.Itoa(c.Date.Year), 1)),
		Domains:      s.terms(p, "domain", c.Domain),
		Summary:      s.text(c.Summary, lang),
		Symptoms:     s.terms(p, "symptoms", c.Symptoms),
		SymptomsText: s.text(c.SymptomsText, lang),
		RootCause:    s.term(p, "root_cause", c.RootCause),
		Trigger:      s.text(c.Trigger, lang),
		Components:   s.terms(p, "components", c.Components),
		Contributing: s.terms(p, "contributing", c.Contributing),
		Detection:    s.text(c.Detection, lang),
		Docs:         c.Docs,
		Updated:      l10n.Date(lang, c.UpdatedAt.Year(), c.UpdatedAt.Month(), c.UpdatedAt.Day()),
		JSON:         p.Link(urls.APICase(c.ID)),
		Similar:      p.Link(urls.APISimilar(c.ID)),
		Markdown:     p.Link(urls.Markdown(lang, c.ID)),
		MCP:          s.lib.Site.MCP,
		MCPNote:      s.text(s.lib.Site.MCP.Note, lang),
		MCPTools:     MCPTools,
		APIDoc:       p.Link(urls.APIDoc(lang)) + "#mcp",
	}
	if c.Review.ReviewedAt != nil {
		d := c.Review.ReviewedAt
		v.ReviewedAt = l10n.Date(lang, d.Year, d.Month, d.Day)
	}
	sev := Fact{Label: p.T("fact.severity")}
	if c.Severity != "unknown" {
		t := s.term(p, "severity", c.Severity)
		sev.Value, sev.Link = t.Label, t.Href
	}
	v.Facts = []Fact{
		sev,
		textFact(p.T("fact.scope"), c.Impact.Scope, lang),
		textFact(p.T("fact.users"), c.Impact.Users, lang),
		{Label: p.T("fact.region"), Value: known(c.Impact.Region)},
		{Label: p.T("fact.detect"), Value: s.dur(lang, c.Timeline.DetectedAfter)},
		{Label: p.T("fact.resolve"), Value: s.dur(lang, c.Timeline.ResolvedAfter)},
	}
	for _, t := range c.Remediation {
		v.Remediation = append(v.Remediation, s.text(t, lang))
	}
	for _, t := range c.ActionItems {
		v.ActionItems = append(v.ActionItems, s.text(t, lang))
	}
	if c.Lessons != nil {
		l := s.text(*c.Lessons, lang)
		v.Lessons = &l
	}
	for _, src := range c.Sources {
		host := src.URL
		if u, err := url.Parse(src.URL); err == nil {
			host = u.Host
		}
		v.Sources = append(v.Sources, SourceView{URL: src.URL, Host: host, Kind: p.T("source." + src.Kind), Archived: src.Archived})
	}
	for _, g := range s.related[c.ID] {
		gv := RelGroupView{Reason: s.reason(p, g.Kind, g.Reason)}
		for _, l := range g.Links {
			gv.Cases = append(gv.Cases, s.caseLink(p, s.lib.ByID[l.ID], s.reason(p, l.Kind, l.Reason)))
		}
		v.Related = append(v.Related, gv)
	}
	p.JSONLD = s.caseJSONLD(p, v)
	v.Callout = s.callout(lang)
	v.WrittenBy = s.WrittenBy(lang, c)
	return v
}

// writers are the values of review.written_by that name no person but a
// way of writing, shown through a UI string rather than as written.
var writers = map[string]string{"session": "writer.session"}

// WrittenBy says who wrote c in lang: a person's name as written, or the
// label of a known machine value such as "session".
func (s *Site) WrittenBy(lang string, c *cases.Case) string {
	if key, ok := writers[c.Review.WrittenBy]; ok {
		return s.strings.Get(lang, key)
	}
	return c.Review.WrittenBy
}

// callout is the site's callout box (site.json) in lang, shown on case
// pages and under every list of cases.
func (s *Site) callout(lang string) CalloutView {
	co := s.lib.Site.Callout
	return CalloutView{Title: plainText(co.Title, lang), Text: s.text(co.Text, lang), Link: co.Link.URL, Label: co.Link.Label.Get(lang)}
}

func sevLabel(s *Site, p *Page, c *cases.Case) string {
	if c.Severity == "unknown" {
		return ""
	}
	return s.term(p, "severity", c.Severity).Label
}

// reason writes why cases are related: "same root cause · shared Ingress
// controller" / "같은 원인 · 공통 인그레스 컨트롤러".
func (s *Site) reason(p *Page, kind related.Kind, g related.Reason) string {
	var parts []string
	switch kind {
	case related.Explicit:
		parts = append(parts, p.T("related.explicit"))
	case related.RecurrenceOf:
		parts = append(parts, p.T("related.recurrence_of"))
	case related.Recurred:
		parts = append(parts, p.T("related.recurred"))
	}
	if g.SameRootCause {
		parts = append(parts, p.T("related.same_root_cause"))
	}
	labels := func(field string, ids []string) []string {
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = s.term(p, field, id).Label
		}
		return out
	}
	if len(g.Components) > 0 {
		parts = append(parts, p.T("related.shared")+" "+l10n.List(p.Lang, labels("components", g.Components)))
	}
	if len(g.Contributing) > 0 {
		parts = append(parts, p.T("related.contributing")+" "+l10n.List(p.Lang, labels("contributing", g.Contributing)))
	}
	if len(g.Symptoms) > 0 {
		parts = append(parts, p.T("related.symptoms")+" "+l10n.List(p.Lang, labels("symptoms", g.Symptoms)))
	}
	return strings.Join(parts, " · ")
}

// firstSentence is a short description for meta tags and feeds.
func firstSentence(t cases.Text, lang string) string {
	s, _ := t.In(lang)
	if i := strings.Index(s, "\n"); i >= 0 {
		s = s[:i]
	}
	r := []rune(s)
	if len(r) > 200 {
		return string(r[:199]) + "…"
	}
	return s
}

// Card is a case in a list, with every section of the case as seed 002
// shows it. Long sections are cut to their first paragraph or first few
// items; More is set when anything was cut, and the card then links to the
// whole case ("이 사례 더 보기").
type Card struct {
	P            *Page
	ID           string
	Href         string
	Title        plainTxt
	Org          string
	OrgLink      string
	Date         string
	DateISO      string
	Published    string // "Published" in the page's language when the date is the source's, else ""
	YearLink     string
	Sev          string
	Symptoms     Txt
	Trigger      Txt
	RootCause    TermLink
	Components   []TermLink
	Contributing []TermLink
	Detection    Txt
	Remediation  []Txt
	ActionItems  []Txt
	Lessons      *Txt
	More         bool
}

// cardItems is how many remediation steps and action items a card shows.
const cardItems = 3

// cardHTML returns a case's card in lang, rendered once and kept: a case
// appears on many list and topic pages, and with marked links its card is the
// same on all of them.
func (s *Site) cardHTML(lang string, c *cases.Case) (template.HTML, error) {
	slot := &s.cards[langIndex(lang)][s.caseIndex[c]]
	if h := slot.Load(); h != nil {
		return *h, nil
	}
	b := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(b)
	b.Reset()
	p := &Page{Lang: lang, s: s}
	if err := s.theme.execute(b, "list", "card", s.card(p, c)); err != nil {
		return "", err
	}
	h := template.HTML(s.opt.Text.String(b.Bytes()))
	slot.Store(&h) // two workers may both render it: the same bytes
	return h, nil
}

// ReleaseCards drops the rendered cards, to free their memory once the
// pages that list cases are written (cards held in Options.Text stay in
// that arena; only the slots go). Cards are rendered again if needed.
func (s *Site) ReleaseCards() {
	for i := range s.cards {
		s.cards[i] = make([]atomic.Pointer[template.HTML], len(s.lib.Cases))
	}
}

func langIndex(lang string) int {
	if lang == cases.Languages[0] {
		return 0
	}
	return 1
}

func (s *Site) cardsHTML(lang string, cs []*cases.Case) ([]template.HTML, error) {
	out := make([]template.HTML, len(cs))
	for i, c := range cs {
		h, err := s.cardHTML(lang, c)
		if err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

func (s *Site) card(p *Page, c *cases.Case) Card {
	lang := p.Lang
	cut := false
	first := func(t cases.Text) Txt {
		short, more := firstParagraph(t, lang)
		cut = cut || more
		return s.text(short, lang)
	}
	items := func(ts []cases.Text) []Txt {
		var out []Txt
		for i, t := range ts {
			if i == cardItems {
				cut = true
				break
			}
			out = append(out, s.text(t, lang))
		}
		return out
	}
	cd := Card{
		P: p, ID: c.ID, Href: p.Link(urls.Case(lang, c.ID)), Title: plainText(c.Title, lang),
		Org: c.Org, OrgLink: p.Link(urls.Topic(lang, "orgs", c.OrgSlug, 1)),
		Date: l10n.Date(lang, c.Date.Year, c.Date.Month, c.Date.Day), DateISO: c.Date.String(), Published: ifPublished(p, c, "datekind.published"),
		YearLink:     p.Link(urls.Topic(lang, "years", strconv.Itoa(c.Date.Year), 1)),
		Sev:          sevLabel(s, p, c),
		Symptoms:     first(c.SymptomsText),
		Trigger:      first(c.Trigger),
		RootCause:    s.term(p, "root_cause", c.RootCause),
		Components:   s.terms(p, "components", c.Components),
		Contributing: s.terms(p, "contributing", c.Contributing),
		Detection:    first(c.Detection),
		Remediation:  items(c.Remediation),
		ActionItems:  items(c.ActionItems),
	}
	if c.Lessons != nil {
		l := first(*c.Lessons)
		cd.Lessons = &l
	}
	cd.More = cut
	return cd
}

// firstParagraph returns the first paragraph of t in lang (or in the other
// language when lang's is missing, as Text.In does), and whether more
// followed it.
func firstParagraph(t cases.Text, lang string) (cases.Text, bool) {
	src, written := t.In(lang)
	i := strings.Index(src, "\n\n")
	if i < 0 {
		return t, false
	}
	var short cases.Text
	if written == "ko" {
		short.Ko = src[:i]
	} else {
		short.En = src[:i]
	}
	return short, true
}

// Pager links the pages of a list.
type Pager struct {
	Page, Pages int
	Prev, Next  string
	Items       []PagerItem
	Label       string
}

// PagerItem is one page number, or a gap when Href and Current are empty.
type PagerItem struct {
	N       int
	Href    string
	Current bool
	Gap     bool
}

func pager(p *Page, page, pages int, path func(int) string) Pager {
	pg := Pager{Page: page, Pages: pages, Label: l10n.Page(p.Lang, page, pages)}
	if page > 1 {
		pg.Prev = p.Link(path(page - 1))
	}
	if page < pages {
		pg.Next = p.Link(path(page + 1))
	}
	last := 0
	for n := 1; n <= pages; n++ {
		if n == 1 || n == pages || (n >= page-2 && n <= page+2) {
			if last != 0 && n > last+1 {
				pg.Items = append(pg.Items, PagerItem{Gap: true})
			}
			pg.Items = append(pg.Items, PagerItem{N: n, Href: p.Link(path(n)), Current: n == page})
			last = n
		}
	}
	return pg
}

// ListView is the all-cases list and every topic page.
type ListView struct {
	*Page
	Heading   string
	Kicker    string // the facet's name above a topic's label
	Intro     template.HTML
	IntroLang string
	IntroMiss bool
	Desc      Txt
	Count     string
	Range     string
	Cards     []template.HTML
	Pager     Pager
	Stats     *StatsView
	FacetLink string
	Filters   bool // show the facet filter form (all-cases list)
	Callout   CalloutView
}

func (s *Site) listView(j Job) (*ListView, error) {
	lang := j.Lang
	var all []*cases.Case
	v := &ListView{}
	var path func(int) string
	var p *Page
	if j.Kind == KindCases {
		all = s.lib.Cases
		p = s.page(j, s.strings.Get(lang, "cases.title"))
		p.Section = "cases"
		p.Crumbs = []Crumb{{p.T("nav.home"), p.Link(urls.Home(lang))}, {p.T("nav.cases"), ""}}
		v.Heading = p.Title
		v.Filters = true
		path = func(n int) string { return urls.Cases(lang, n) }
	} else {
		t := j.Topic
		all = t.Cases
		label := t.Label.Get(lang)
		p = s.page(j, label)
		p.Section = j.Facet
		facetName := s.strings.Get(lang, "facet."+j.Facet)
		p.Crumbs = []Crumb{{p.T("nav.home"), p.Link(urls.Home(lang))}, {facetName, p.Link(urls.FacetIndex(lang, j.Facet))}, {label, ""}}
		v.Heading, v.Kicker = label, facetName
		v.FacetLink = p.Link(urls.FacetIndex(lang, j.Facet))
		if !t.Description.IsZero() {
			v.Desc = s.text(t.Description, lang)
		}
		if intro, ok := s.lib.Topics[j.Facet][t.ID]; ok && j.Page <= 1 {
			src, written := intro.In(lang)
			_, body, _ := markup.Prose(src)
			v.Intro, v.IntroLang, v.IntroMiss = template.HTML(body), written, written != lang
		}
		v.Stats = t.statsView(langIndex(lang), func() *StatsView { return s.statsView(p, t.Stats(), j.Facet, t.ID) })
		path = func(n int) string { return urls.Topic(lang, j.Facet, t.ID, n) }
	}
	v.Page = p
	size := s.lib.Site.PageSize
	from := (j.Page - 1) * size
	to := min(from+size, len(all))
	if j.Page > 1 {
		p.Title += " · " + l10n.Page(lang, j.Page, s.pages(len(all)))
	}
	v.Count = l10n.Cases(lang, len(all))
	if len(all) > 0 {
		v.Range = l10n.Range(lang, from+1, to, len(all))
	}
	cards, err := s.cardsHTML(lang, all[from:to])
	if err != nil {
		return nil, err
	}
	v.Cards = cards
	v.Pager = pager(p, j.Page, s.pages(len(all)), path)
	v.Callout = s.callout(lang)
	return v, nil
}

// StatsView is the statistics block of a list, ready to draw, and the
// sentence that closes the list.
type StatsView struct {
	Closing       string
	Groups        []BarGroup
	Years         BarGroup
	MedianDetect  string
	MedianResolve string
	DetectNote    string
	ResolveNote   string
}

// BarGroup is one small bar chart.
type BarGroup struct {
	Title  string
	Bars   []Bar
	Height int
	Alt    string
}

// Bar is one bar: Width is in percent of the largest bar.
type Bar struct {
	Label string
	Href  string
	Count int
	Text  string
	Width int
	Y     int
}

// closing is the sentence under a topic's cases, as seed 002 ends its list:
// the components that at least two of the cases name, most common first,
// leaving out the topic's own term. It is empty when no component is that
// common.
func closing(s *Site, p *Page, st *Stats, facet, term string) string {
	var names []string
	for _, tc := range st.Components {
		if tc.Count < 2 || (facet == "components" && tc.ID == term) {
			continue
		}
		names = append(names, s.term(p, "components", tc.ID).Label)
	}
	key := "list.closing"
	switch len(names) {
	case 0:
		return ""
	case 1:
		key = "list.closing_one"
	}
	return fmt.Sprintf(p.T(key), l10n.Count(p.Lang, st.Total), l10n.List(p.Lang, names))
}

func (s *Site) statsView(p *Page, st *Stats, facet, term string) *StatsView {
	if st == nil || st.Total == 0 {
		return nil
	}
	lang := p.Lang
	v := &StatsView{}
	mk := func(title, field string, tcs []TermCount) BarGroup {
		g := BarGroup{Title: title}
		maxN := 1
		for _, tc := range tcs {
			maxN = max(maxN, tc.Count)
		}
		var alt []string
		for i, tc := range tcs {
			b := Bar{Count: tc.Count, Text: l10n.Count(lang, tc.Count), Width: tc.Count * 100 / maxN, Y: i * 24}
			if field == "" {
				b.Label = tc.ID
				if lang == "ko" {
					b.Label += "년"
				}
				b.Href = p.Link(urls.Topic(lang, "years", tc.ID, 1))
			} else {
				t := s.term(p, field, tc.ID)
				b.Label, b.Href = t.Label, t.Href
			}
			alt = append(alt, b.Label+" "+b.Text)
			g.Bars = append(g.Bars, b)
		}
		g.Height = len(g.Bars) * 24
		g.Alt = title + ": " + strings.Join(alt, ", ")
		return g
	}
	if facet != "components" {
		v.Groups = append(v.Groups, mk(p.T("stats.components"), "components", st.Components))
	}
	if facet != "root-causes" {
		v.Groups = append(v.Groups, mk(p.T("stats.root_causes"), "root_cause", st.RootCauses))
	}
	if len(st.Contributing) > 0 && facet != "contributing" {
		v.Groups = append(v.Groups, mk(p.T("stats.contributing"), "contributing", st.Contributing))
	}
	if facet != "years" {
		v.Years = mk(p.T("stats.years"), "", st.Years)
	}
	v.Closing = closing(s, p, st, facet, term)
	if st.MedianDetect != nil {
		v.MedianDetect = l10n.Duration(lang, *st.MedianDetect)
	}
	if st.MedianResolve != nil {
		v.MedianResolve = l10n.Duration(lang, *st.MedianResolve)
	}
	v.DetectNote = fmt.Sprintf(p.T("stats.known_of"), l10n.Number(st.KnownDetect), l10n.Number(st.Total))
	v.ResolveNote = fmt.Sprintf(p.T("stats.known_of"), l10n.Number(st.KnownResolve), l10n.Number(st.Total))
	return v
}

// caseJSONLD describes a case page for search engines and link previews as
// a schema.org Article.
func (s *Site) caseJSONLD(p *Page, v *CaseView) template.HTML {
	c := v.C
	site := map[string]any{"@type": "WebSite", "name": p.SiteTitle()}
	d := map[string]any{
		"@context":     "https://schema.org",
		"@type":        "Article",
		"identifier":   c.ID,
		"headline":     v.TitleT.Text,
		"description":  p.Description,
		"inLanguage":   p.Lang,
		"dateModified": c.UpdatedAt.Format(time.RFC3339),
		"isPartOf":     site,
		"publisher":    map[string]any{"@type": "Organization", "name": p.SiteTitle()},
	}
	if !s.opt.Offline {
		d["url"] = p.Canonical
		site["url"] = s.base + urls.Home(p.Lang)
	}
	if c.DateKind == "incident" {
		d["temporalCoverage"] = v.Date
	}
	var keywords []string
	for _, t := range append(append([]TermLink{v.RootCause}, v.Components...), v.Symptoms...) {
		keywords = append(keywords, t.Label)
	}
	d["keywords"] = strings.Join(keywords, ", ")
	var based []string
	for _, src := range c.Sources {
		based = append(based, src.URL)
	}
	if len(based) > 0 {
		d["isBasedOn"] = based
	}
	return jsonLD(d)
}

// jsonLD returns data as a script element of type application/ld+json.
// encoding/json writes <, > and & as \u escapes, so no text in the data can
// close the element or open a comment inside it.
func jsonLD(data any) template.HTML {
	b, err := json.Marshal(data)
	if err != nil {
		return "" // maps of strings: cannot fail
	}
	return template.HTML(`<script type="application/ld+json">` + string(b) + `</script>`)
}
