// Package library is the model: one immutable state of the library, the
// loaded content with everything derived from it (topics, their
// statistics, related cases and the narrative words they weigh). The build
// (package build), the preview (package serve) and the MCP server (package
// mcpserver) each hold one Library; the presenters (site for HTML, api for
// JSON, search for the index) read it side by side and import none of each
// other.
//
// New makes a Library from the content folder, read through cases' jail
// and checked, and derives the topics once and the related cases once. The
// preview and the MCP server make the next Library from the one before
// after a save, reading again only the files that changed (cases.Reload;
// cases.ReloadEdited for an edit of cases' text, which makes again only the
// topics the edited cases are in, edited.go) and keeping what the change
// cannot have touched (the related cases when no input to them changed);
// Live (live.go) is that loop.
//
// A Library is never modified after New returns, so that a server can swap
// a new one in atomically and a request never sees half of a change.
// (cases.Library is the loaded content alone; a Library holds it with
// everything derived from it.)
package library

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/diag"
	"incidentlib/internal/history"
	"incidentlib/internal/tokenize"
)

// Options say how to make a Library.
type Options struct {
	// Previous is the library before a save, and Changed the content
	// paths the save touched (slash-separated, relative to the content
	// folder): only those are read again, and what they cannot have changed
	// is taken from Previous. With Previous and no Changed, Previous's
	// content is kept as it is. ReadAll reads all the content again even
	// with Previous (the content folder itself was replaced).
	Previous *Library
	Changed  []string
	ReadAll  bool

	// Drafts puts the drafts without errors among the cases, marked, as
	// the preview shows them (cases.Library.WithDrafts). Lib is then that
	// library; its Drafts still list every draft with its problems.
	Drafts bool

	// OffHeap keeps the text of the cases and their cards outside the Go
	// heap (cases.LoadOffHeap); only a process that builds once and exits
	// sets it.
	OffHeap bool
	// LateRelated keeps Previous's related cases when an edit changed
	// what they are computed from, instead of computing them again (seconds
	// at 10,000 cases): the preview shows the edit at once, then makes the
	// exact library with Relate and shows that too (see late.go).
	LateRelated bool
	// Loaded, when set, is called with the content and its topics once
	// the content has loaded (or reloaded) without errors, before the
	// related cases are derived: a build starts there what needs only
	// those (the search index), alongside the deriving. It is not called
	// when the content has errors or ctx ended during the loading.
	Loaded func(lib *cases.Library, topics Topics)
	// History, when set, is called once the content has loaded without
	// errors and returns the content's git history (package history), or
	// nil when there is none to use: Changes then lists it instead of
	// what updated_at says. A build reads it alongside the loading.
	History func() *history.Log
}

// Library is one immutable state of the library.
type Library struct {
	// Lib is the loaded content; nil only when the content folder could
	// not be read at all.
	Lib   *cases.Library
	Diags diag.List // the content's problems, warnings included
	// Stages are the steps New took, in order: "load" or "reload", then
	// "derive" when the content has no errors.
	Stages []Stage
	// Version names this state of the content (versionOf): the day of its
	// latest change and how many changes that day holds, "2026-12-03.4".
	// Every page's footer, the API, the downloads and the MCP server
	// print it; "" when the content has errors.
	Version string

	topics  Topics
	related map[string][]RelGroup
	// lazy holds what is made on first use (BySource, AllStats); a
	// pointer, so that a copy of the Library (Relate) shares it.
	lazy *lazyParts
	// stale is set when related was kept from a library before an edit
	// that changed its inputs (Options.LateRelated).
	stale bool

	// checklist is made on first use (Checklist); a copy of the library
	// (Relate) shares it, as it shares the content it is made from.
	checklist *lazyChecklist

	// history is the content's git history (Options.History), or nil.
	history *history.Log
}

// lazyParts are parts of a Library made on first use.
type lazyParts struct {
	// sources indexes the cases by their sources' addresses, made on the
	// first BySource (the MCP server's find_by_source), never by a build.
	sourcesOnce sync.Once
	sources     map[string][]string
	// all is the statistics of every listed case (AllStats).
	allOnce sync.Once
	all     *Stats
}

// AllStats returns the statistics of every listed case, as a topic's
// Stats does for its cases: the home page draws them.
func (l *Library) AllStats() *Stats {
	z := l.lazy
	z.allOnce.Do(func() { z.all = computeStats(l.Lib.Cases, &l.Lib.Vocab) })
	return z.all
}

// Stage is the time one step took: of New, or of a build.
type Stage struct {
	Name string
	Took time.Duration
}

// Ready reports whether the content loaded without errors, so that its
// topics and related cases are derived.
func (l *Library) Ready() bool { return l.topics != nil }

// Topics returns the facets by URL name; nil when the content has errors.
func (l *Library) Topics() Topics { return l.topics }

// Related returns a case's related cases, grouped for display.
func (l *Library) Related(id string) []RelGroup { return l.related[id] }

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

// New makes a Library of the content in fsys (see Content). Problems in
// the content are not an error here: they are in Diags, and nothing is
// derived. The error is for ctx ending first (it is context.Cause(ctx));
// at 100,000 cases loading takes seconds, and nothing waits for it then
// (the loading goroutine finishes on its own).
func New(ctx context.Context, fsys fs.FS, opt Options) (*Library, error) {
	l := &Library{lazy: &lazyParts{}, checklist: &lazyChecklist{}}
	t := time.Now()
	stage := func(name string) {
		now := time.Now()
		l.Stages = append(l.Stages, Stage{name, now.Sub(t)})
		t = now
	}
	prev := opt.Previous
	edited := false // only the text of cases changed (cases.ReloadEdited): see edited.go
	switch {
	case prev == nil || prev.Lib == nil || opt.ReadAll:
		lib, list, err := loadUnless(ctx, fsys, opt.OffHeap)
		if err != nil {
			return nil, err
		}
		l.Lib, l.Diags = lib, list
		stage("load")
	case len(opt.Changed) > 0:
		var ok bool
		if l.Lib, l.Diags, ok = cases.ReloadEdited(prev.Lib, prev.Diags, fsys, opt.Changed); ok {
			edited = true
			stage("edit")
		} else {
			l.Lib, l.Diags = cases.Reload(prev.Lib, prev.Diags, fsys, opt.Changed)
			stage("reload")
		}
	default:
		l.Lib, l.Diags = prev.Lib, prev.Diags
	}
	if opt.Drafts && l.Lib != nil {
		l.Lib = l.Lib.WithDrafts()
	}
	if l.Diags.Errors() > 0 {
		return l, nil
	}
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	l.topics, l.Version = nil, ""
	if edited && prev.Ready() {
		if edits, ok := editsOf(prev.Lib, l.Lib); ok {
			l.topics = editTopics(prev.topics, l.Lib, edits)
			l.Version = editVersion(prev.Version, edits)
		}
	}
	if l.topics == nil {
		l.topics = deriveTopics(l.Lib)
	}
	if l.Version == "" {
		l.Version = versionOf(l.Lib)
	}
	if opt.Loaded != nil {
		opt.Loaded(l.Lib, l.topics)
	}
	if prev != nil && prev.Ready() && sameRelations(prev.Lib, l.Lib) {
		l.related = prev.related // an edit of other text leaves every relation as it was
		l.stale = prev.stale
	} else if prev != nil && prev.Ready() && opt.LateRelated && sameCases(prev.Lib, l.Lib) {
		l.related, l.stale = prev.related, true
	} else {
		l.related = deriveRelated(l.Lib, tokenize.EachWord)
	}
	if opt.History != nil {
		l.history = opt.History() // read alongside all of the above
	}
	stage("derive")
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	return l, nil
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

// Derive makes a Library of content already loaded without errors, as New
// does after its loading: for tests, benchmarks and tools that load the
// content themselves.
func Derive(lib *cases.Library) *Library {
	l := &Library{Lib: lib, topics: deriveTopics(lib), Version: versionOf(lib), lazy: &lazyParts{}, checklist: &lazyChecklist{}}
	l.related = deriveRelated(lib, tokenize.EachWord)
	return l
}
