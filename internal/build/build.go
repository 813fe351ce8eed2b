// Package build runs a whole build: load and check the content, derive what
// pages share, render every file with a pool of workers and write the result
// into a fresh folder that replaces the output folder only when everything
// succeeded. A failed build leaves the previous output exactly as it was.
package build

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/diag"
	"incidentlib/internal/offheap"
	"incidentlib/internal/site"
)

// Options say what to build and where.
type Options struct {
	Content string // the content folder
	Out     string // the output folder, replaced as a whole (see Marker for which it takes)
	// ForceOut takes an output folder that holds files the last build did
	// not write, or that has no marker: they are removed with the rest. It
	// never takes a protected folder (see protected) nor removes files on
	// another filesystem.
	ForceOut bool
	Offline  bool   // links that work from disk
	BaseURL  string // overrides site.json's base_url when set
	// Templates and Static are the theme: the page templates with their
	// UI strings, and the files published under assets/. The command
	// passes the copies embedded in the binary or folders on disk.
	Templates, Static fs.FS
	// TemplatesDir and StaticDir name the folders Templates and Static were
	// read from, when they come from disk: the output folder may be none
	// of them, nor lie inside or hold one.
	TemplatesDir, StaticDir string
	// Workers is how many pages render at once; 0 means GOMAXPROCS.
	Workers int
	// Extras are written besides the pages, alongside them; nil means
	// StandardExtras().
	Extras []Extra
	// Progress, when set, is called about once a second while pages render
	// with how many of how many files are done.
	Progress func(done, total int)
	// Written, when set, is called once every file is written, before the
	// output folder is swapped in (the CLI writes a heap profile there).
	Written func()
	// Text, when set, holds the text of the cases and their rendered cards
	// outside the Go heap. It is never freed, so only a process that builds
	// once and exits (the CLI's build) sets it; see package offheap.
	Text *offheap.Arena
	// tempMade, when a test sets it, is called with the temporary folder
	// as soon as it exists, to make writes into it fail.
	tempMade func(dir string)
}

// Load reads and checks the content folder.
func Load(content string) (*cases.Library, diag.List, error) {
	return load(content, nil)
}

func load(content string, text *offheap.Arena) (*cases.Library, diag.List, error) {
	info, err := os.Stat(content)
	if err != nil {
		return nil, diag.List{}, fmt.Errorf("content folder: %w", err)
	}
	if !info.IsDir() {
		return nil, diag.List{}, fmt.Errorf("content folder %s is not a folder", content)
	}
	lib, list := cases.LoadText(cases.ContentFS(content), text)
	return lib, list, nil
}

// loadUnless loads the content unless ctx ends first: at 100,000 cases
// loading takes seconds, and nothing is written yet that would need
// cleaning up, so a Ctrl-C need not wait for it. (The loading goroutine
// then finishes on its own, in a process that is about to exit.)
func loadUnless(ctx context.Context, content string, text *offheap.Arena) (*cases.Library, diag.List, error) {
	type result struct {
		lib  *cases.Library
		list diag.List
		err  error
	}
	done := make(chan result, 1)
	go func() {
		lib, list, err := load(content, text)
		done <- result{lib, list, err}
	}()
	select {
	case r := <-done:
		return r.lib, r.list, r.err
	case <-ctx.Done():
		return nil, diag.List{}, interrupted(ctx)
	}
}

// Run builds the site. Content problems come back in the list (warnings
// too); err is set when the build did not replace the output folder. The
// output folder is judged before anything else is done (see Marker).
//
// When ctx is done, the workers stop, the temporary folder is removed and
// Run returns an error that wraps ctx's (context.Canceled for Ctrl-C); the
// previous output stays as it was. The first error writing a file stops the
// build the same way, with that one error.
func Run(ctx context.Context, opt Options) (*Stats, diag.List, error) {
	start := time.Now()
	st := &Stats{Kinds: map[string]int{}}
	target, err := outTarget(opt)
	if err != nil {
		return nil, diag.List{}, err
	}
	if opt.BaseURL != "" {
		if err := cases.CheckBaseURL(opt.BaseURL); err != nil {
			return nil, diag.List{}, fmt.Errorf("base URL: %w", err)
		}
	}
	// The temporary folder comes first, so that a read-only or full disk
	// fails the build before seconds of loading.
	w, err := newWriter(target, opt.Out)
	if err != nil {
		return nil, diag.List{}, err
	}
	defer w.abandon()
	if opt.tempMade != nil {
		opt.tempMade(w.tmp)
	}
	// The earlier output is judged to the bottom while the content loads.
	old := checkOld(target, opt)
	s, list, t, err := prepare(ctx, opt, st, start)
	if err != nil {
		return nil, list, err
	}
	oldFiles, err := old.wait()
	if err != nil {
		return nil, list, err
	}
	if target.exists {
		st.Stages = append(st.Stages, Stage{"check old output (alongside)", old.took})
	}
	// The first failure, or the caller's cancel, stops every worker.
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	extras := startExtras(ctx, stop, s, w, opt.Extras)
	writePages(ctx, stop, s, w, opt, st, t)
	s.ReleaseCards() // their memory is free for what is still running
	extras.wait(st)
	if err := interrupted(ctx); err != nil {
		return nil, list, err
	}
	if opt.Written != nil {
		opt.Written()
	}
	if err := interrupted(ctx); err != nil {
		return nil, list, err
	}
	t = time.Now()
	st.Files, st.Bytes = int(w.files.Load()), w.bytes.Load()
	st.Kept = int(w.kept.Load())
	st.Written = st.Files - st.Kept
	st.Removed = max(0, oldFiles-st.Kept-int(w.replaced.Load()))
	warnings, err := w.commit()
	if err != nil {
		return nil, list, err
	}
	st.Warnings = warnings
	st.Stages = append(st.Stages, Stage{"swap", time.Since(t)})
	st.Total = time.Since(start)
	return st, list, nil
}

// prepare loads and checks the content, loads the theme and derives the
// site, timing each stage from t. It returns the time the last one ended.
func prepare(ctx context.Context, opt Options, st *Stats, t time.Time) (*site.Site, diag.List, time.Time, error) {
	stage := func(name string, t0 time.Time) time.Time {
		now := time.Now()
		st.Stages = append(st.Stages, Stage{name, now.Sub(t0)})
		return now
	}
	lib, list, err := loadUnless(ctx, opt.Content, opt.Text)
	if err != nil {
		return nil, list, t, err
	}
	t = stage("load+check", t)
	if list.Errors() > 0 {
		n := fmt.Sprintf("%d errors", list.Errors())
		if list.Errors() == 1 {
			n = "1 error"
		}
		return nil, list, t, fmt.Errorf("%s in %s; nothing was written", n, opt.Content)
	}
	if err := interrupted(ctx); err != nil {
		return nil, list, t, err
	}
	st.Cases = len(lib.Cases)
	th, err := site.LoadTheme(opt.Templates, opt.Static)
	if err != nil {
		return nil, list, t, err
	}
	t = stage("theme+minify", t) // parse, compact (the minifying) and compile templates; minify assets
	s, err := site.New(lib, site.Options{Offline: opt.Offline, BaseURL: opt.BaseURL, Theme: th, Text: opt.Text})
	if err != nil {
		return nil, list, t, err
	}
	t = stage("derive", t)
	return s, list, t, interrupted(ctx)
}

// interrupted returns why ctx is done, or nil: the first write error, or
// the caller's cancel, wrapped so that errors.Is finds context.Canceled.
func interrupted(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	cause := context.Cause(ctx)
	if errors.Is(cause, context.Canceled) || errors.Is(cause, context.DeadlineExceeded) {
		return fmt.Errorf("interrupted (%w); the previous output is unchanged", cause)
	}
	return cause
}
