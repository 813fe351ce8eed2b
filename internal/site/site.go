// Package site turns the library (package library, the model) into the
// pages and files of the public site. It owns the typed view model of
// every page kind, the theme that renders them, and the feeds and sitemap. Paths come from
// package urls; this package only makes them into links.
//
// A Site is built once per build (New) and is read-only afterwards, so any
// number of goroutines may render jobs from it at the same time.
//
// # Jobs and rendering
//
// Jobs lists every file of the site in a fixed order (jobs.go); Render
// writes one (render.go): it builds the page kind's view and executes the
// theme's template for it. A case page has a second output, its Markdown
// twin (markdown.go, written by internal/casemd): RenderCase writes both from one
// view, and Render writes the twin alone for a job from Job.Twin. Links inside a page are written marked and
// resolved relative to the page as it is written (links.go), so the site
// works under any path prefix and from disk.
//
// # View models
//
// Every page view embeds *pageView (page.go): its language, title, navigation
// and the methods templates call (T, Link, Asset). One file per page kind
// holds its view and the function that fills it: case.go, list.go,
// facet.go, home.go (with the language-choice root page), search.go,
// prose.go, apidoc.go, notfound.go. Case cards, shared by lists and
// topics, are rendered once per case and language (card.go), from the case
// page's view when the case page comes first, as in a build. So are a
// case's line in the related cases of other cases (caseLink.Head) and a
// topic's statistics block (statsView.HTML).
//
// # The model
//
// A Site renders one library.Library (package library: the cases, their
// topics, statistics, related cases and narrative words, derived once);
// it adds only what is HTML: each topic's statistics block per language,
// made on first use (stats.go), the links and boxes every page shares.
//
// # Theme
//
// A Theme is the parsed templates, the UI strings and the fingerprinted
// static files (theme.go). Templates are compacted (minify.go) and
// compiled by package htmlexec when it can prove it writes what
// html/template writes; otherwise html/template renders them.
//
// # Feeds and sitemap
//
// feed.go writes each language's Atom feed; sitemap.go writes the sitemap,
// split into parts with an index when the site outgrows one file.
package site

import (
	"errors"
	"html/template"
	"io/fs"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"incidentlib/internal/casemd"
	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/library"
)

// Options change how a site is rendered.
type Options struct {
	// Offline makes links name index.html, for a bundle opened from disk.
	Offline bool
	// BaseURL overrides site.json's base_url (canonical links, feeds,
	// sitemap). It ends in a slash.
	BaseURL string
	// Templates and Static hold the page templates (with strings.json) and
	// the files copied to the site, usually the embedded defaults.
	Templates fs.FS
	Static    fs.FS
	// Theme, when set, is used instead of parsing Templates and Static.
	Theme *Theme
	// Root is the absolute path the site is served under, such as
	// "/incidentlib/": the 404 page's links start with it. Empty means the
	// path of the base URL.
	Root string
}

// Site is a library ready to render.
type Site struct {
	lib     *cases.Library
	opt     Options
	base    string
	md      *casemd.Writer // the Markdown of cases (twins)
	root    string         // Options.Root or the base URL's path, ending in a slash
	strings l10n.Strings
	theme   *Theme
	assets  map[string]asset // logical name such as css/site.css → asset
	model   *library.Library
	topics  library.Topics
	// statsViews holds each topic's statistics as every page of the
	// topic shows them, per language: with marked links they are the same
	// on all its pages (see topicStats).
	statsViews map[*library.Topic]*[2]atomic.Pointer[statsView]
	nav        map[string][]navItem
	footer     map[string][]navItem
	consts     [2]pageConsts // by language, see CallMethod
	assetRefs  map[string]any
	callouts   [2]*calloutView                          // the callout box per language (callout)
	mcpNotes   [2]*localized                            // the hosted MCP server's note per language (mcpNote)
	termLinks  map[*cases.Facet]map[string]*[2]termLink // every topic's link, per language (term)
	yearLinks  map[int]*[2]string                       // every year's topic link, per language (yearLink)
	// cards holds each case's rendered card per language, by the case's
	// position in lib.Cases.
	cards [2][]atomic.Pointer[template.HTML]
	// feedEntries holds each case's entry in the feeds as Atom, per
	// language, by the case's position (feeds.cachedEntry).
	feedEntries [2][]atomic.Pointer[[]byte]
	links       [2][]atomic.Pointer[caseLink] // each case as a related case, per language, by position
	caseIndex   map[*cases.Case]int

	// The page jobs, listed once: the build and every part of the sitemap
	// go through them.
	pageJobsOnce sync.Once
	pageJobList  []Job
	// Where each sitemap part starts in the page jobs (see sitemapParts).
	sitemapOnce  sync.Once
	sitemapSplit []int
}

// New derives everything pages share and parses the templates.
func New(model *library.Library, opt Options) (*Site, error) {
	if !model.Ready() {
		return nil, errors.New("site.New: the library has errors")
	}
	lib := model.Lib
	s := &Site{lib: lib, model: model, opt: opt, base: lib.Settings.BaseURL}
	if opt.BaseURL != "" {
		s.base = opt.BaseURL
	}
	if !strings.HasSuffix(s.base, "/") {
		s.base += "/"
	}
	s.root = opt.Root
	if s.root == "" {
		if u, err := url.Parse(s.base); err == nil {
			s.root = u.Path
		}
	}
	if !strings.HasSuffix(s.root, "/") {
		s.root += "/"
	}
	th := opt.Theme
	if th == nil {
		var err error
		if th, err = LoadTheme(opt.Templates, opt.Static); err != nil {
			return nil, err
		}
	}
	s.strings, s.theme, s.assets = th.strings, th, th.assets
	s.md = casemd.New(lib, s.strings, s.base)
	s.caseIndex = make(map[*cases.Case]int, len(lib.Cases))
	for i, c := range lib.Cases {
		s.caseIndex[c] = i
	}
	for i := range s.cards {
		s.cards[i] = make([]atomic.Pointer[template.HTML], len(lib.Cases))
		s.links[i] = make([]atomic.Pointer[caseLink], len(lib.Cases))
		s.feedEntries[i] = make([]atomic.Pointer[[]byte], len(lib.Cases))
	}
	s.topics = model.Topics()
	s.statsViews = map[*library.Topic]*[2]atomic.Pointer[statsView]{}
	for _, ft := range s.topics {
		for _, t := range ft.Topics {
			s.statsViews[t] = new([2]atomic.Pointer[statsView])
		}
	}
	s.termLinks, s.yearLinks = furniture{s}.makeTermLinks(), furniture{s}.makeYearLinks()
	s.nav, s.footer = map[string][]navItem{}, map[string][]navItem{}
	for _, lang := range cases.Languages {
		s.nav[lang], s.footer[lang] = furniture{s}.navigation(lang)
	}
	s.consts, s.assetRefs = furniture{s}.pageConsts(), furniture{s}.boxAssetRefs()
	for i, lang := range cases.Languages {
		co, note := furniture{s}.makeCallout(lang), localize(lib.Settings.MCP.Note, lang)
		s.callouts[i], s.mcpNotes[i] = &co, &note
	}
	return s, nil
}

// sortedAssets returns the static files, sorted by path.
func (s *Site) sortedAssets() []asset {
	out := make([]asset, 0, len(s.assets))
	for _, a := range s.assets {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Engines returns the gauge of the template engines that rendered the
// site's pages so far (see Theme.Engines).
func (s *Site) Engines() Engines { return s.theme.engines() }

// Library returns the library the site renders.
func (s *Site) Library() *library.Library { return s.model }

// topicStats returns a topic's statistics view in a language, made once.
// Two workers may both make it: the same value. A topic of another
// library (a job made for another site) is made each time.
func (s stats) topicStats(t *library.Topic, lang int, build func() *statsView) *statsView {
	views := s.statsViews[t]
	if views == nil {
		return build()
	}
	slot := &views[lang]
	if v := slot.Load(); v != nil {
		return v
	}
	v := build()
	if v != nil {
		slot.Store(v)
	}
	return v
}

// The kinds of job.
const (
	KindCase Kind = iota
	KindCases
	KindTopic
	KindFacet
	KindHome
	KindRoot
	KindSearch
	KindProse
	KindNotFound
	KindAPIDoc
	KindFeed
	KindSitemap
	KindRobots
	KindAsset
	KindTwin // a case page's Markdown twin, rendered with its page by RenderCase
	KindPrepare
	KindTopicFeed
	KindChanges
	KindPrepareData // the file of a part or a product of the prepare page (prepare.go)
)

// kindNames name each kind of job for people (a build's summary).
var kindNames = map[Kind]string{
	KindCase: "case page", KindCases: "case list", KindTopic: "topic page", KindFacet: "facet page",
	KindHome: "home", KindRoot: "language chooser", KindSearch: "search page", KindProse: "prose page",
	KindNotFound: "404", KindAPIDoc: "API page", KindFeed: "feed", KindSitemap: "sitemap",
	KindRobots: "robots.txt", KindAsset: "asset", KindTwin: "Markdown twin",
	KindTopicFeed: "topic feed", KindChanges: "changes feed", KindPrepare: "prepare page",
	KindPrepareData: "prepare file",
}

// String names the kind for people, as a build's summary counts files.
func (k Kind) String() string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return "kind " + strconv.Itoa(int(k))
}

// Offline reports whether the site is built for opening from disk.
func (s *Site) Offline() bool { return s.opt.Offline }

// BaseURL is the site's public URL, ending in a slash.
func (s *Site) BaseURL() string { return s.base }

// URL returns the public URL of a site path.
func (s *Site) URL(path string) string { return s.base + path }

// Strings returns the UI strings.
func (s *Site) Strings() l10n.Strings { return s.strings }
