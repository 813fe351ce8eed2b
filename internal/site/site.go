// Package site turns the loaded library into the pages and files of the
// public site: it owns the URL contract, the derived data that pages share
// (topics, their statistics and related cases), the typed view of every page
// kind and the templates that render them.
//
// A Site is built once per build and is read-only afterwards, so any number
// of goroutines may render jobs from it at the same time.
package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/url"
	"path"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"incidentlib/internal/cases"
	"incidentlib/internal/htmlexec"
	"incidentlib/internal/l10n"
	"incidentlib/internal/offheap"
	"incidentlib/internal/urls"
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
	// Previous, when set, is the site of the library before an edit: what
	// the edit cannot have changed is taken from it instead of computed.
	Previous *Site
	// Root is the absolute path the site is served under, such as
	// "/incidentlib/": the 404 page's links start with it. Empty means the
	// path of the base URL.
	Root string
	// Text, when set, holds the rendered cards of the cases outside the Go
	// heap for the life of the process (see package offheap): a build that
	// exits when done sets it, a server must not.
	Text *offheap.Arena
}

// Site is a library ready to render.
type Site struct {
	lib     *cases.Library
	opt     Options
	base    string
	root    string // Options.Root or the base URL's path, ending in a slash
	strings l10n.Strings
	theme   *Theme
	assets  map[string]Asset // logical name such as css/site.css → asset
	facets  map[string]*Facet
	related map[string][]RelGroup
	nav     map[string][]NavItem
	footer  map[string][]NavItem
	// cards holds each case's rendered card per language, by the case's
	// position in lib.Cases.
	cards     [2][]atomic.Pointer[template.HTML]
	caseIndex map[*cases.Case]int

	// The page jobs, listed once: the build and every part of the sitemap
	// go through them.
	pageJobsOnce sync.Once
	pageJobList  []Job
	// Where each sitemap part starts in the page jobs (see sitemapParts).
	sitemapOnce  sync.Once
	sitemapSplit []int
}

// Asset is a static file published under a name that includes a hash of its
// content, so that a CDN may cache it forever.
type Asset struct {
	Path string // site path, such as assets/site.1a2b3c4d.css
	SRI  string // Subresource Integrity value
	Data []byte
	Type string // media type
}

// pageKinds are the templates that render whole pages.
var pageKinds = []string{"case", "list", "facet", "home", "root", "search", "prose", "notfound", "apidoc"}

// New derives everything pages share and parses the templates.
func New(lib *cases.Library, opt Options) (*Site, error) {
	s := &Site{lib: lib, opt: opt, base: lib.Site.BaseURL}
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
	s.caseIndex = make(map[*cases.Case]int, len(lib.Cases))
	for i, c := range lib.Cases {
		s.caseIndex[c] = i
	}
	for i := range s.cards {
		s.cards[i] = make([]atomic.Pointer[template.HTML], len(lib.Cases))
	}
	s.facets = deriveFacets(lib)
	if p := opt.Previous; p != nil && sameRelations(p.lib, lib) {
		s.related = p.related // a text edit leaves every relation as it was
	} else {
		s.related = deriveRelated(lib)
	}
	s.nav, s.footer = map[string][]NavItem{}, map[string][]NavItem{}
	for _, lang := range cases.Languages {
		s.nav[lang], s.footer[lang] = s.navigation(lang)
	}
	return s, nil
}

// Theme is the parsed templates, UI strings and static files: everything a
// site needs that does not come from content. The preview server keeps one
// across content edits.
type Theme struct {
	strings l10n.Strings
	tmpl    map[string]*template.Template
	fast    map[string]*htmlexec.Template // by kind, and "card"; absent where a template needs html/template itself
	assets  map[string]Asset
}

// LoadTheme parses the templates and strings and minifies and hashes the
// static files.
func LoadTheme(templates, static fs.FS) (*Theme, error) {
	return loadTheme(templates, static, themeConfig{compile: htmlexec.Compile})
}

// themeConfig is what tests change about loading a theme.
type themeConfig struct {
	// keepWhitespace leaves templates as written, to show that compacting
	// them changes nothing a minifier would keep.
	keepWhitespace bool
	// compile is htmlexec.Compile; a test replaces it to prove that a
	// template htmlexec refuses renders through html/template, unchanged.
	compile func(*template.Template, string, template.FuncMap) (*htmlexec.Template, error)
}

func loadTheme(templates, static fs.FS, cfg themeConfig) (*Theme, error) {
	if templates == nil || static == nil {
		return nil, fmt.Errorf("no theme: the templates and static files must be given")
	}
	th := &Theme{}
	data, err := fs.ReadFile(templates, "strings.json")
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	if th.strings, err = l10n.ParseStrings(data); err != nil {
		return nil, fmt.Errorf("templates/strings.json: %w", err)
	}
	if th.assets, err = loadAssets(static); err != nil {
		return nil, err
	}
	th.tmpl = map[string]*template.Template{}
	for _, kind := range pageKinds {
		t, err := template.New(kind).Funcs(funcs).ParseFS(templates, "base.html", kind+".html")
		if err != nil {
			return nil, fmt.Errorf("templates: %w", err)
		}
		if !cfg.keepWhitespace {
			compactTemplates(t)
		}
		th.tmpl[kind] = t
	}
	th.fast = map[string]*htmlexec.Template{}
	for _, kind := range pageKinds {
		ft, err := cfg.compile(th.tmpl[kind], "base", funcs)
		if err != nil && !errors.Is(err, htmlexec.ErrUnsupported) {
			return nil, fmt.Errorf("templates: %w", err)
		}
		if err == nil {
			th.fast[kind] = ft
		}
	}
	if ft, err := cfg.compile(th.tmpl["list"], "card", funcs); err == nil {
		th.fast["card"] = ft
	} else if !errors.Is(err, htmlexec.ErrUnsupported) {
		return nil, fmt.Errorf("templates: %w", err)
	}
	return th, nil
}

// execute runs the template name of a page kind's set: compiled when it
// could be, with html/template otherwise. Both write the same bytes.
func (th *Theme) execute(buf *bytes.Buffer, kind, name string, data any) error {
	key := kind
	if name != "base" {
		key = name
	}
	if ft := th.fast[key]; ft != nil {
		start := buf.Len()
		err := ft.Execute(buf, data)
		if !errors.Is(err, htmlexec.ErrUnsupported) {
			return err
		}
		buf.Truncate(start)
	}
	return th.tmpl[kind].ExecuteTemplate(buf, name, data)
}

var funcs = template.FuncMap{
	"add": func(a, b int) int { return a + b },
}

func loadAssets(static fs.FS) (map[string]Asset, error) {
	assets := map[string]Asset{}
	err := fs.WalkDir(static, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(static, p)
		if err != nil {
			return err
		}
		ext := path.Ext(p)
		typ := map[string]string{".css": "text/css", ".js": "application/javascript", ".svg": "image/svg+xml"}[ext]
		if typ != "" {
			data = minifyAsset(typ, data)
		}
		sum := sha256.Sum256(data)
		name := strings.TrimSuffix(path.Base(p), ext)
		assets[p] = Asset{
			Path: urls.Asset(name, hex.EncodeToString(sum[:])[:10], ext),
			SRI:  "sha256-" + base64.StdEncoding.EncodeToString(sum[:]),
			Data: data,
			Type: typ,
		}
		return nil
	})
	return assets, err
}

// Assets returns the static files, sorted by path.
func (s *Site) Assets() []Asset {
	out := make([]Asset, 0, len(s.assets))
	for _, a := range s.assets {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Library returns the library the site renders.
func (s *Site) Library() *cases.Library { return s.lib }

// Facets returns the facets by URL name.
func (s *Site) Facets() map[string]*Facet { return s.facets }

// Kind is what a job produces.
type Kind uint8

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
)

// Job is one file of the site to render.
type Job struct {
	Kind  Kind
	Lang  string
	Path  string // site path; a folder path means <path>index.html
	Case  *cases.Case
	Topic *Topic
	Facet string
	Page  int // 1-based page of a paginated list
	Slug  string
	Asset string
}

// File returns where the job's output goes inside the output folder.
func (j Job) File() string {
	if j.Path == "" || strings.HasSuffix(j.Path, "/") {
		return j.Path + "index.html"
	}
	return j.Path
}

// pages returns the number of pages a list of n cases needs.
func (s *Site) pages(n int) int {
	size := s.lib.Site.PageSize
	if n == 0 {
		return 1
	}
	return (n + size - 1) / size
}

// Jobs lists every file of the site, in a fixed order.
func (s *Site) Jobs() []Job {
	var jobs []Job
	add := func(j Job) { jobs = append(jobs, j) }
	add(Job{Kind: KindRoot, Path: ""})
	add(Job{Kind: KindNotFound, Path: urls.NotFound})
	add(Job{Kind: KindSitemap, Path: urls.Sitemap})
	if parts := len(s.sitemapParts()) - 1; parts > 1 {
		for i := 1; i <= parts; i++ {
			add(Job{Kind: KindSitemap, Path: urls.SitemapPart(i), Page: i})
		}
	}
	add(Job{Kind: KindRobots, Path: urls.Robots})
	for _, a := range s.Assets() {
		add(Job{Kind: KindAsset, Path: a.Path, Asset: a.Path})
	}
	return append(jobs, s.pageJobs()...)
}

// pageJobs lists the pages of both languages.
func (s *Site) pageJobs() []Job {
	s.pageJobsOnce.Do(func() { s.pageJobList = s.listPageJobs() })
	return s.pageJobList
}

func (s *Site) listPageJobs() []Job {
	var jobs []Job
	add := func(j Job) { jobs = append(jobs, j) }
	for _, lang := range cases.Languages {
		add(Job{Kind: KindHome, Lang: lang, Path: urls.Home(lang)})
		add(Job{Kind: KindSearch, Lang: lang, Path: urls.Search(lang)})
		add(Job{Kind: KindAPIDoc, Lang: lang, Path: urls.APIDoc(lang)})
		add(Job{Kind: KindFeed, Lang: lang, Path: urls.Feed(lang)})
		for _, p := range s.lib.Pages {
			add(Job{Kind: KindProse, Lang: lang, Path: urls.Prose(lang, p.Slug), Slug: p.Slug})
		}
		for i := 1; i <= s.pages(len(s.lib.Cases)); i++ {
			add(Job{Kind: KindCases, Lang: lang, Path: urls.Cases(lang, i), Page: i})
		}
		for _, c := range s.lib.Cases {
			add(Job{Kind: KindCase, Lang: lang, Path: urls.Case(lang, c.ID), Case: c})
		}
		for _, name := range cases.Facets {
			f := s.facets[name]
			add(Job{Kind: KindFacet, Lang: lang, Path: urls.FacetIndex(lang, name), Facet: name})
			for _, t := range f.Topics {
				for i := 1; i <= s.pages(len(t.Cases)); i++ {
					add(Job{Kind: KindTopic, Lang: lang, Path: urls.Topic(lang, name, t.ID, i), Topic: t, Facet: name, Page: i})
				}
			}
		}
	}
	return jobs
}

// Render writes the job's file to w and returns its media type.
func (s *Site) Render(j Job, w io.Writer) (string, error) {
	switch j.Kind {
	case KindAsset:
		for _, a := range s.assets {
			if a.Path == j.Asset {
				_, err := w.Write(a.Data)
				return a.Type, err
			}
		}
		return "", fmt.Errorf("no asset %s", j.Asset)
	case KindFeed:
		return "application/atom+xml", s.feed(j, w)
	case KindSitemap:
		return "application/xml", s.sitemap(j, w)
	case KindRobots:
		_, err := fmt.Fprintf(w, "User-agent: *\nAllow: /\n\nSitemap: %s%s\n", s.base, urls.Sitemap)
		return "text/plain", err
	}
	view, tmpl, err := s.view(j)
	if err != nil {
		return "", err
	}
	buf := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(buf)
	buf.Reset()
	if err := s.theme.execute(buf, tmpl, "base", view); err != nil {
		return "", err
	}
	err = writeResolved(w, buf.Bytes(), s.rootOf(j))
	return "text/html", err
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// RenderBytes renders a job into memory.
func (s *Site) RenderBytes(j Job) ([]byte, string, error) {
	var b bytes.Buffer
	typ, err := s.Render(j, &b)
	return b.Bytes(), typ, err
}

// Offline reports whether the site is built for opening from disk.
func (s *Site) Offline() bool { return s.opt.Offline }

// BaseURL is the site's public URL, ending in a slash.
func (s *Site) BaseURL() string { return s.base }

// URL returns the public URL of a site path.
func (s *Site) URL(path string) string { return s.base + path }

// Strings returns the UI strings.
func (s *Site) Strings() l10n.Strings { return s.strings }
