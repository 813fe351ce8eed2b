// Package snapshot makes the library as the three applications use it.
// The build (package build), the preview (package serve) and the MCP
// server (package mcpserver) each get one immutable Snapshot from New: the
// content read through cases' jail and checked, the theme, and the derived
// site (topics, statistics, related cases, page URLs), from which
// SearchDocs makes the documents the search index is built from. The preview and the MCP server
// make the next snapshot from the one before after a save, reading again
// only the files that changed (cases.Reload) and keeping what the change
// cannot have touched (site.Options.Previous).
//
// The name says what it is: one state of the library, never modified after
// New returns, so that a server can swap a new one in atomically and a
// request never sees half of a change. (cases.Library is the loaded content
// alone; a Snapshot holds it with everything derived from it.)
package snapshot

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/diag"
	"incidentlib/internal/search"
	"incidentlib/internal/site"
)

// Options say how to make a snapshot.
type Options struct {
	// Theme is the parsed templates and static files. When it is nil,
	// LoadTheme makes it: for a first snapshot (no Previous) alongside the
	// loading of the content, for a later one only once the content has
	// loaded without errors. Either way its error is reported only for
	// content without errors, so that a content error comes before a
	// template one.
	Theme     *site.Theme
	LoadTheme func() (*site.Theme, error)

	// Previous is the snapshot before a save, and Changed the content
	// paths the save touched (slash-separated, relative to the content
	// folder): only those are read again, and what they cannot have changed
	// is taken from Previous. With Previous and no Changed, Previous's
	// library is kept as it is (a theme edit). ReadAll reads all the content
	// again even with Previous (the content folder itself was replaced).
	Previous *Snapshot
	Changed  []string
	ReadAll  bool

	// Drafts puts the drafts without errors among the cases, marked, as
	// the preview shows them (cases.Library.WithDrafts). Lib is then that
	// library; its Drafts still list every draft with its problems.
	Drafts bool

	Offline bool   // links that work from disk (site.Options.Offline)
	BaseURL string // overrides site.json's base_url (site.Options.BaseURL)
	Root    string // the path the site is served under (site.Options.Root)
	// OffHeap keeps the text of the cases and their cards outside the Go
	// heap (cases.LoadOffHeap); only a process that builds once and exits
	// sets it.
	OffHeap bool
	// Loaded, when set, is called with the library once the content has
	// loaded (or reloaded) without errors, before the theme is parsed and
	// the site derived: a build starts there what needs only the library
	// (see Extra.Library), alongside the deriving. It is not called when
	// the content has errors or ctx ended during the loading.
	Loaded func(lib *cases.Library)
}

// Snapshot is one immutable state of the library.
type Snapshot struct {
	// Lib is the loaded content; nil only when the content folder could
	// not be read at all.
	Lib   *cases.Library
	Diags diag.List // the content's problems, warnings included
	// Theme is the theme the site was made with, or the one given; nil
	// when the content has errors and none was given.
	Theme *site.Theme
	// Site is the derived site; nil when Diags holds errors or Err is set.
	Site *site.Site
	// Err says why the theme or the site could not be made from content
	// without errors: a template error, most often.
	Err error
	// Stages are the steps New took, in order: "load" or "reload",
	// "theme" when it parsed the theme (the time it waited for it after the loading), "site".
	Stages []Stage
}

// Stage is the time one step took: of New, or of a build (build.Result).
type Stage struct {
	Name string
	Took time.Duration
}

// Content returns the content folder dir as the loader reads it (through
// cases.ContentFS, which keeps every read inside dir), or an error when
// dir is missing or not a folder.
func Content(dir string) (fs.FS, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("content folder: %w", err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("content folder %s is not a folder", dir)
	}
	return cases.ContentFS(dir), nil
}

// New makes a snapshot of the content in fsys (see Content). Problems in
// the content, the theme or the site are not an error here: they are in
// Diags and Err, and Site is nil. The error is for ctx ending first (it is
// context.Cause(ctx)); at 100,000 cases loading takes seconds, and nothing
// waits for it then (the loading goroutine finishes on its own).
func New(ctx context.Context, fsys fs.FS, opt Options) (*Snapshot, error) {
	s := &Snapshot{Theme: opt.Theme}
	t := time.Now()
	stage := func(name string) {
		now := time.Now()
		s.Stages = append(s.Stages, Stage{name, now.Sub(t)})
		t = now
	}
	// A first snapshot (a build's) parses the theme while the content
	// loads: at 1,000 cases that is a twentieth of what the build waits
	// for before its pages. Later ones (a save in serve) parse it after,
	// and not at all for content with errors.
	type themed struct {
		th  *site.Theme
		err error
		at  time.Time
	}
	var waitTheme func() themed
	if s.Theme == nil {
		parse := func() themed {
			th, err := opt.LoadTheme()
			return themed{th, err, time.Now()}
		}
		waitTheme = parse
		if opt.Previous == nil {
			ch := make(chan themed, 1)
			go func() { ch <- parse() }()
			waitTheme = func() themed { return <-ch }
		}
	}
	prev := opt.Previous
	switch {
	case prev == nil || prev.Lib == nil || opt.ReadAll:
		lib, list, err := loadUnless(ctx, fsys, opt.OffHeap)
		if err != nil {
			return nil, err
		}
		s.Lib, s.Diags = lib, list
		stage("load")
	case len(opt.Changed) > 0:
		s.Lib, s.Diags = cases.Reload(prev.Lib, prev.Diags, fsys, opt.Changed)
		stage("reload")
	default:
		s.Lib, s.Diags = prev.Lib, prev.Diags
	}
	if opt.Drafts && s.Lib != nil {
		s.Lib = s.Lib.WithDrafts()
	}
	if s.Diags.Errors() > 0 {
		return s, nil
	}
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	if opt.Loaded != nil {
		opt.Loaded(s.Lib)
	}
	if waitTheme != nil {
		r := waitTheme()
		// The stage is the time the build waited for the theme, often none.
		if r.at.Before(t) {
			r.at = t
		}
		s.Stages = append(s.Stages, Stage{"theme", r.at.Sub(t)})
		t = r.at
		if r.err != nil {
			s.Err = r.err
			return s, nil
		}
		s.Theme = r.th
	}
	var prevSite *site.Site
	if prev != nil {
		prevSite = prev.Site
	}
	st, err := site.New(s.Lib, site.Options{
		Offline: opt.Offline, BaseURL: opt.BaseURL, Root: opt.Root,
		Theme: s.Theme, Previous: prevSite, Words: search.EachWord,
	})
	stage("site")
	if err != nil {
		s.Err = err
		return s, nil
	}
	s.Site = st
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	return s, nil
}

// loadUnless loads the content unless ctx ends first.
func loadUnless(ctx context.Context, fsys fs.FS, offHeap bool) (*cases.Library, diag.List, error) {
	load := cases.Load
	if offHeap {
		load = cases.LoadOffHeap
	}
	if ctx.Done() == nil {
		lib, list := load(fsys)
		return lib, list, nil
	}
	// A context that has already ended is not raced against a load that
	// may finish first: a select with both ready picks either.
	if ctx.Err() != nil {
		return nil, diag.List{}, context.Cause(ctx)
	}
	type result struct {
		lib  *cases.Library
		list diag.List
	}
	done := make(chan result, 1)
	go func() {
		lib, list := load(fsys)
		done <- result{lib, list}
	}()
	select {
	case r := <-done:
		return r.lib, r.list, nil
	case <-ctx.Done():
		return nil, diag.List{}, context.Cause(ctx)
	}
}

// SearchDocs returns what the search index is built from (search.Docs)
// and every topic's labels in both languages; the MCP server searches the
// same documents in memory, so that it answers as the site's search does.
// They are made anew on each call and not kept: a build needs them only
// while it writes the index. It may be called only when Site is set.
func (s *Snapshot) SearchDocs() ([]search.Doc, search.Labels) {
	return search.Docs(s.Lib), labels(s.Site.Facets())
}

// LibrarySearchDocs returns what SearchDocs returns, from the library
// alone: the topics are derived again (site.DeriveFacets, some
// milliseconds), so that the search index need not wait for the site.
func LibrarySearchDocs(lib *cases.Library) ([]search.Doc, search.Labels) {
	return search.Docs(lib), labels(site.DeriveFacets(lib))
}

// labels are the labels of every facet's topics as the site shows them.
// An organisation's label is its name as the case pages show it (HubSpot
// in both languages); its Korean spelling in vocab.json only finds it, as
// each document's OrgAlias.
func labels(facets map[string]*site.FacetTopics) search.Labels {
	out := search.Labels{}
	for _, f := range cases.FacetNames() {
		m := map[string][2]string{}
		for _, t := range facets[f].Topics {
			m[t.ID] = [2]string{t.Label.En, t.Label.Ko}
		}
		out[f] = m
	}
	return out
}

// Extra is a part of the site written outside the page jobs, such as the
// search index or the JSON API: the build writes the extras beside the
// pages, the preview makes them on first request. Package build lists the
// standard ones (build.StandardExtras).
//
// An extra that needs only the library sets Library instead of Write: a
// build starts it as soon as the content has loaded (Options.Loaded),
// alongside the deriving of the site, instead of after it.
type Extra struct {
	Name    string
	Write   func(s *Snapshot, write func(path string, data []byte) error) error
	Library func(lib *cases.Library, offline bool, write func(path string, data []byte) error) error
}

// Run writes the extra from s, whose Site is set.
func (e Extra) Run(s *Snapshot, write func(path string, data []byte) error) error {
	if e.Library != nil {
		return e.Library(s.Lib, s.Site.Offline(), write)
	}
	return e.Write(s, write)
}
