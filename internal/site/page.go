package site

import (
	"html/template"
	"incidentlib/internal/casemd"
	"incidentlib/internal/cases"
	"incidentlib/internal/markup"
	"incidentlib/internal/urls"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// pageView is what every page view has: its language, where it is, its title
// and the links around it. Templates call its methods to translate strings
// and to make links relative to the page.
type pageView struct {
	Lang        string
	Path        string
	Title       string
	TitleLang   string // set when the title is shown in the other language
	Description string
	Canonical   string
	Alternates  []alternate
	Switch      string // link to the same page in the other language
	SwitchLang  string
	Crumbs      []crumb
	Section     string // which header section is current
	// OwnSearch is set on pages with a search box of their own (home,
	// search, the list of all cases): the header then shows none, so that
	// a page has one search box.
	OwnSearch bool
	// Both is set on the pages written in both languages at once (the
	// language chooser and the root 404 page): they get no header or
	// footer of one language; each language's part has its own links.
	Both    bool
	Noindex bool
	Feed    string
	// JSONLD is the page's schema.org data as a whole script element
	// (case pages only); see jsonLD.
	JSONLD template.HTML
	s      *Site
}

// alternate is an hreflang link.
type alternate struct {
	Lang string
	Href string
}

// crumb is one step of the breadcrumbs.
type crumb struct {
	Label string
	Href  string
}

// CallMethod lets the template executor call the page's methods that every
// page calls, many times, without reflection (see htmlexec.Caller). Views
// embed *pageView and define no methods of these names, so the promoted method
// is the one a template means. The values that depend on the language alone
// are boxed once per site (pageConsts), so that a call allocates nothing.
func (p *pageView) CallMethod(name, arg string) (any, bool) {
	if i, ok := langSlot(p.Lang); ok && p.s.consts[i].strings != nil {
		c := &p.s.consts[i]
		if name == "T" {
			if v, ok := c.strings[arg]; ok {
				return v, true
			}
		} else if v, ok := c.methods[name]; ok {
			return v, true
		}
	}
	// A page of both languages or none, or a key the site does not have:
	// the methods that take an argument are called, the others left to
	// reflection.
	switch name {
	case "T":
		return p.T(arg), true
	case "Link":
		return p.Link(arg), true
	case "Offline":
		return p.Offline(), true
	case "Asset":
		if v, ok := p.s.assetRefs[arg]; ok {
			return v, true
		}
		return p.Asset(arg), true
	}
	return nil, false
}

// CallerKey says which pages CallMethod answers alike (see
// htmlexec.KeyedCaller): those of one language on one site. Pages of both
// languages or none get 0, and the executor keeps nothing for them.
func (p *pageView) CallerKey() uint64 {
	if i, ok := langSlot(p.Lang); ok && p.s.consts[i].strings != nil {
		return p.s.consts[i].key
	}
	return 0
}

// pageConsts are what CallMethod returns for a language, boxed: the UI
// strings by key, and the methods without arguments that depend on the
// language alone by name.
type pageConsts struct {
	strings map[string]any
	methods map[string]any
	key     uint64 // CallerKey: this site's and language's, no other's
}

// callerKeys numbers the languages of every site made in this process: a
// theme's compiled templates, which keep what a key's pages print, outlive
// a site in the preview server.
var callerKeys atomic.Uint64

// langSlot is the place of lang in cases.Languages; false for a page of
// both languages or none.
func langSlot(lang string) (int, bool) {
	for i, l := range cases.Languages {
		if l == lang {
			return i, true
		}
	}
	return 0, false
}

// pageConsts boxes the values of CallMethod for each language.
func (s furniture) pageConsts() [2]pageConsts {
	var out [2]pageConsts
	for i, lang := range cases.Languages {
		p := &pageView{Lang: lang, s: s.Site}
		c := pageConsts{strings: make(map[string]any, len(s.strings)), methods: map[string]any{
			"SiteTitle": p.SiteTitle(), "Home": p.Home(), "SearchPage": p.SearchPage(),
			"Nav": p.Nav(), "FooterLinks": p.FooterLinks(), "SearchRoot": p.SearchRoot(),
			"Version": p.Version(), "ChangesLink": p.ChangesLink(),
		}, key: callerKeys.Add(1)}
		for key := range s.strings {
			c.strings[key] = p.T(key)
		}
		out[i] = c
	}
	return out
}

// T returns a UI string in the page's language.
func (p *pageView) T(key string) string { return p.s.strings.Get(p.Lang, key) }

// Link returns a link from this page to a site path.
func (p *pageView) Link(target string) string { return markedLink(target, p.s.opt.Offline) }

// Home returns the link to this language's home page.
func (p *pageView) Home() string { return p.Link(urls.Home(p.Lang)) }

// Version names the state of the library the page was built from
// (library.Library.Version), which the footer prints.
func (p *pageView) Version() string { return p.s.model.Version }

// ChangesLink is the link to the feed of what changed in the library.
func (p *pageView) ChangesLink() string { return p.Link(urls.Changes(p.Lang)) }

// Nav lists the header's sections.
func (p *pageView) Nav() []navItem { return p.s.nav[p.Lang] }

// FooterLinks lists prose pages and the API for the footer.
func (p *pageView) FooterLinks() []navItem { return p.s.footer[p.Lang] }

// navItem is a header or footer link.
type navItem struct {
	ID    string
	Label string
	Href  string
}

// navigation computes the header and footer links of a language once: with
// marked links they are the same on every page.
func (s furniture) navigation(lang string) (nav, footer []navItem) {
	p := &pageView{Lang: lang, s: s.Site}
	nav = []navItem{
		{"cases", p.T("nav.cases"), p.Link(urls.Cases(lang, 1))},
	}
	for _, f := range cases.Facets {
		if f.Shows(cases.InNav) {
			nav = append(nav, navItem{f.Name, f.Label.Get(lang), p.Link(urls.FacetIndex(lang, f.Name))})
		}
	}
	nav = append(nav, navItem{"search", p.T("nav.search"), p.Link(urls.Search(lang))})
	for _, pg := range s.lib.Prose {
		if pg.Slug == "about" {
			nav = append(nav, navItem{"about", p.T("nav.about"), p.Link(urls.Prose(lang, "about"))})
		}
	}
	for _, pg := range s.lib.Prose {
		title, _, _ := markup.Prose(pg.Body.Get(lang))
		if title == "" {
			title = pg.Slug
		}
		footer = append(footer, navItem{pg.Slug, title, p.Link(urls.Prose(lang, pg.Slug))})
	}
	footer = append(footer, navItem{"api", p.T("nav.api"), p.Link(urls.APIDoc(lang))})
	footer = append(footer, navItem{"feed", p.T("nav.feed"), p.Link(urls.Feed(lang))})
	for _, l := range s.lib.Settings.Links {
		footer = append(footer, navItem{"", l.Label.Get(lang), l.URL})
	}
	return nav, footer
}

// boxAssetRefs returns what Asset returns for each static file, boxed for
// CallMethod: the same on every page.
func (s furniture) boxAssetRefs() map[string]any {
	p := &pageView{s: s.Site}
	out := make(map[string]any, len(s.assets))
	for name := range s.assets {
		out[name] = p.Asset(name)
	}
	return out
}

// Asset returns the link and integrity value of a static file.
func (p *pageView) Asset(name string) assetRef {
	a, ok := p.s.assets[name]
	if !ok {
		return assetRef{Href: "missing-asset-" + name}
	}
	return assetRef{Href: p.Link(a.Path), SRI: a.SRI}
}

// assetRef is a link to a static file with its integrity value.
type assetRef struct {
	Href string
	SRI  string
}

// SiteTitle is the library's name in the page's language.
func (p *pageView) SiteTitle() string { return p.s.lib.Settings.Title.Get(p.Lang) }

// SearchPage is the link to the search page of the page's language, where
// the search forms send their query.
func (p *pageView) SearchPage() string { return p.Link(urls.Search(p.Lang)) }

// SearchRoot is the relative link to the search index folder.
func (p *pageView) SearchRoot() string { return markedLink(urls.SearchDir, false) } // a folder the script reads, never a page

// Offline reports whether this is a build for opening from disk.
func (p *pageView) Offline() bool { return p.s.opt.Offline }

// alternates returns a page's hreflang links, the same in its <head> and
// in the sitemap: the page in each language and, for the two home pages,
// the language chooser as x-default, so that the homes and the chooser
// name each other alike.
func (s *Site) alternates(j Job) []alternate {
	alts := make([]alternate, 0, len(cases.Languages)+1)
	for _, lang := range cases.Languages {
		p := j.Path
		if lang != j.Lang {
			p = urls.OtherLanguage(j.Path, j.Lang)
		}
		alts = append(alts, alternate{lang, s.base + p})
	}
	if j.Kind == KindHome {
		alts = append(alts, alternate{"x-default", s.base}) // the chooser
	}
	return alts
}

func (s *Site) page(j Job, title string) *pageView {
	p := &pageView{Lang: j.Lang, Path: j.Path, Title: title, s: s}
	if j.Lang != "" {
		other := cases.Other(j.Lang)
		p.Switch = markedLink(urls.OtherLanguage(j.Path, j.Lang), s.opt.Offline)
		p.SwitchLang = other
		p.Canonical = s.base + j.Path
		p.Alternates = s.alternates(j)
		p.Feed = markedLink(urls.Feed(j.Lang), s.opt.Offline)
		p.Description = s.lib.Settings.Description.Get(j.Lang)
	}
	return p
}

// localized is a bilingual text as a page shows it: in the page's language,
// or in the other language with a mark when the translation is missing,
// rendered from its Markdown.
type localized struct {
	HTML    template.HTML
	Src     string // the Markdown it is rendered from
	Lang    string
	Missing bool
}

func localize(t cases.Bilingual, lang string) localized {
	x := localizeSource(t, lang)
	x.HTML = template.HTML(markup.Paragraphs(x.Src))
	return x
}

// localizeSource is a localized text without its HTML, for outputs that
// show the source.
func localizeSource(t cases.Bilingual, lang string) localized {
	src, written := t.In(lang)
	return localized{Src: src, Lang: written, Missing: written != lang && src != ""}
}

// localizedLine is a one-line localized text without Markdown, such as a
// title.
type localizedLine struct {
	Text    string
	Lang    string
	Missing bool
}

func localizeLine(t cases.Bilingual, lang string) localizedLine {
	x := localizeSource(t, lang)
	return localizedLine{Text: x.Src, Lang: x.Lang, Missing: x.Missing}
}

// termLink is a controlled term shown by its label, linking to its topic.
type termLink struct {
	ID    string
	Label string
	Href  string
}

// term is id of f as a page shows it. A term with no topic page (only a
// withdrawn case names it: topics leave withdrawn cases out) has no link.
func (p *pageView) term(f *cases.Facet, id string) termLink {
	if i, ok := langSlot(p.Lang); ok {
		if t, ok := p.s.termLinks[f][id]; ok {
			return t[i]
		}
	}
	if !p.s.hasTopic(f, id) {
		return termLink{ID: id, Label: p.s.label(p.Lang, f, id)}
	}
	return newTermLink(p.s, p, f, id)
}

// hasTopic reports whether id of f has a topic page: false only for a
// facet with topic pages that has none for id.
func (s *Site) hasTopic(f *cases.Facet, id string) bool {
	ts, ok := s.termLinks[f]
	if !ok || len(ts) == 0 {
		return true
	}
	_, ok = ts[id]
	return ok
}

func newTermLink(s *Site, p *pageView, f *cases.Facet, id string) termLink {
	return termLink{ID: id, Label: s.label(p.Lang, f, id), Href: p.Link(urls.Topic(p.Lang, f.Name, id, 1))}
}

// makeTermLinks makes the link of every topic in both languages once: case
// pages and cards show a case's terms, and a term is shown for many cases.
func (s furniture) makeTermLinks() map[*cases.Facet]map[string]*[2]termLink {
	out := make(map[*cases.Facet]map[string]*[2]termLink, len(s.topics))
	var pages [2]*pageView
	for i, lang := range cases.Languages {
		pages[i] = &pageView{Lang: lang, s: s.Site}
	}
	for name, ft := range s.topics {
		f := cases.FacetByName(name)
		if f == nil {
			continue
		}
		m := make(map[string]*[2]termLink, len(ft.Topics))
		for _, t := range ft.Topics {
			var links [2]termLink
			for i, p := range pages {
				links[i] = newTermLink(s.Site, p, f, t.ID)
			}
			m[t.ID] = &links
		}
		out[f] = m
	}
	return out
}

// label is a term's label in lang, or its id when it has none.
func (s *Site) label(lang string, f *cases.Facet, id string) string {
	t, _ := s.lib.Vocab.Term(f.Field, id)
	if label := t.Label.Get(lang); label != "" {
		return label
	}
	return id
}

func (p *pageView) terms(f *cases.Facet, ids []string) []termLink {
	out := make([]termLink, len(ids))
	for i, id := range ids {
		out[i] = p.term(f, id)
	}
	return out
}

// fact is one row of a case's facts table. Empty Value means unknown.
type fact struct {
	Label string
	Value string
	Link  string
	Lang  string // set when the value is in another language than the page
}

// shortDate writes a whole date as the seeds' kickers do (2024-08-27) and a
// partial one in words, since "2019-04" reads as a code, not a month. Korean
// pages write every date in words (2023년 11월 5일), as the facts beside it
// do: an ISO date in Korean text reads as a code too.
func shortDate(p *pageView, d cases.Date) string {
	if d.Day != 0 && p.Lang != "ko" {
		return d.String()
	}
	return casemd.DateWords(p.s.strings, p.Lang, d)
}

// yearText is a date's year as a short list shows it.
func yearText(p *pageView, d cases.Date) string {
	if !d.Known() {
		return p.T("date.unknown")
	}
	return strconv.Itoa(d.Year)
}

// yearLink is the topic page of a date's year; "" when the date is unknown,
// since such a case is under no year.
func yearLink(p *pageView, d cases.Date) string {
	if !d.Known() {
		return ""
	}
	if i, ok := langSlot(p.Lang); ok && p.s != nil {
		if links, ok := p.s.yearLinks[d.Year]; ok {
			return links[i]
		}
	}
	return p.Link(urls.Topic(p.Lang, cases.Years.Name, strconv.Itoa(d.Year), 1))
}

// makeYearLinks makes the link to each year's topic in both languages
// once, by year: a case page and a card link their case's year.
func (s furniture) makeYearLinks() map[int]*[2]string {
	out := map[int]*[2]string{}
	ft := s.topics[cases.Years.Name]
	if ft == nil {
		return out
	}
	for _, t := range ft.Topics {
		y, err := strconv.Atoi(t.ID)
		if err != nil || strconv.Itoa(y) != t.ID {
			continue
		}
		var links [2]string
		for i, lang := range cases.Languages {
			links[i] = markedLink(urls.Topic(lang, cases.Years.Name, t.ID, 1), s.opt.Offline)
		}
		out[y] = &links
	}
	return out
}

// firstSentence is a short description for meta tags and feeds.
func firstSentence(t cases.Bilingual, lang string) string {
	s, _ := t.In(lang)
	if i := strings.Index(s, "\n"); i >= 0 {
		s = s[:i]
	}
	if utf8.RuneCountInString(s) > 200 {
		r := []rune(s)
		return string(r[:199]) + "…"
	}
	return s
}

// furniture makes, once in New, what every page shares: the constants of
// each language, the navigation, the boxes' assets, the links of terms and
// years and the callout box.
type furniture struct{ *Site }
