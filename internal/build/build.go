// Package build runs a whole build: make the model of the content (package
// library: load and check it, derive what pages share), render every file
// with a pool of workers, with the extras (search index, API, _headers)
// alongside, and write the result into a fresh folder that replaces the
// output folder only when everything succeeded. A failed build leaves the previous output exactly as it was.
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
	"incidentlib/internal/library"
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
	Extras []site.Extra
	// Progress, when set, is called about once a second while pages render
	// with how many of how many files are done.
	Progress func(done, total int)
	// Written, when set, is called once every file is written, before the
	// output folder is swapped in (the CLI writes a heap profile there).
	Written func()
	// Loaded, when set, is called with the number of cases once the
	// content has loaded and checked without errors, before what pages
	// share is derived (the CLI paces its collector from there).
	Loaded func(cases int)
	// History says where the changes list (changes.json and the changes
	// feeds) comes from: HistoryGit reads the content's git history
	// (package history) and falls back, with a warning, to HistoryOff
	// (each case's updated_at, also what "" means) when git cannot answer.
	// HistoryTimeout bounds git; 0 means history.DefaultTimeout.
	History        string
	HistoryTimeout time.Duration
	// OffHeap keeps the text of the cases and their rendered cards outside
	// the Go heap (cases.LoadOffHeap). That memory is never freed, so only a
	// process that builds once and exits (the CLI's build) sets it.
	OffHeap bool
	// tempMade, when a test sets it, is called with the temporary folder
	// as soon as it exists, to make writes into it fail.
	tempMade func(dir string)
	// beforeSwap, when a test sets it, is called after the last check of
	// the old output, just before the swap.
	beforeSwap func()
}

// Load reads and checks the content folder.
func Load(content string) (*cases.Library, diag.List, error) {
	fsys, err := library.Content(content)
	if err != nil {
		return nil, diag.List{}, err
	}
	lib, list := cases.Load(fsys)
	return lib, list, nil
}

// Run builds the site. Content problems come back in the list (warnings
// too); err is set when the build did not replace the output folder. The
// output folder is judged before anything else is done (see Marker).
//
// When ctx is done, the workers stop, the temporary folder is removed and
// Run returns an error that wraps ctx's (context.Canceled for Ctrl-C); the
// previous output stays as it was. The first error writing a file stops the
// build the same way, with that one error.
func Run(ctx context.Context, opt Options) (*Result, diag.List, error) {
	start := time.Now()
	st := &Result{Kinds: map[string]int{}}
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
	// The files of content/root are few and small: read at once, they fail
	// the build before any work when one cannot be copied.
	root, err := readRoot(cases.ContentFS(opt.Content), opt.Content)
	if err != nil {
		return nil, diag.List{}, fmt.Errorf("cannot copy %s: %w", RootDir, err)
	}
	root, merged := splitRoot(root)
	// The earlier output is judged to the bottom while the content loads.
	old := checkOld(target, opt)
	// The first failure, or the caller's cancel, stops every worker. The
	// extras that need only the library start as soon as it has loaded;
	// whatever way Run returns, they have stopped before the temporary
	// folder is removed.
	ctx, stop := context.WithCancelCause(ctx)
	extras := newExtras(ctx, stop, w, opt.Extras, merged)
	defer extras.done.Wait()
	defer stop(nil)
	s, list, t, err := prepare(ctx, opt, st, start, extras)
	if err != nil {
		stop(err)
		return nil, list, err
	}
	oldFiles, err := old.wait()
	if err != nil {
		stop(err)
		return nil, list, err
	}
	if target.exists {
		st.Stages = append(st.Stages, library.Stage{Name: "check old output (alongside)", Took: old.took})
	}
	extras.start(s)
	checklist := startChecklist(s)
	writePages(ctx, stop, s, w, opt, st, t)
	s.ReleaseCards() // their memory is free for what is still running
	extras.wait(st)
	waitChecklist(ctx, checklist, st)
	st.Engines = s.Engines()
	if err := interrupted(ctx); err != nil {
		return nil, list, err
	}
	if err := writeRoot(w, root, merged, st); err != nil {
		return nil, list, err
	}
	if opt.Written != nil {
		opt.Written()
	}
	if err := interrupted(ctx); err != nil {
		return nil, list, err
	}
	if err := swap(w, target, opt, st, oldFiles); err != nil {
		return nil, list, err
	}
	st.Total = time.Since(start)
	return st, list, nil
}

// swap counts what the build wrote and kept in st, judges the output a
// last time (recheckOut) and puts the new output in place of the old,
// which held oldFiles files.
func swap(w *writer, target target, opt Options, st *Result, oldFiles int) error {
	t := time.Now()
	st.Files, st.Bytes = int(w.files.Load()), w.bytes.Load()
	st.Kept = int(w.kept.Load())
	st.Written = st.Files - st.Kept
	st.Removed = max(0, oldFiles-st.Kept-int(w.replaced.Load()))
	if err := recheckOut(target, opt); err != nil {
		return err
	}
	if opt.beforeSwap != nil {
		opt.beforeSwap()
	}
	warnings, err := w.commit()
	if err != nil {
		return err
	}
	st.Warnings = append(st.Warnings, warnings...)
	st.Stages = append(st.Stages, library.Stage{Name: "swap", Took: time.Since(t)})
	return nil
}

// recheckOut judges the output again just before the swap, as outTarget
// and checkOld judged it at the start: a file put into it while the build
// ran (seconds at a large library) would otherwise go with the old output.
// The build stops instead, naming the files, and leaves them and the old
// output as they are.
func recheckOut(t target, opt Options) error {
	if opt.ForceOut {
		return nil
	}
	if !t.exists {
		entries, err := os.ReadDir(t.out)
		if entries = withoutTemps(entries, t.out); err == nil && len(entries) > 0 {
			return &OutError{opt.Out, fmt.Sprintf("%s appeared in it while the build ran; the new output was not put in place. Move them away and build again", listEntries(entries))}
		}
		return nil
	}
	if _, err := checkOld(t, opt).wait(); err != nil {
		var oe *OutError
		if errors.As(err, &oe) {
			oe.Why = "while the build ran, " + oe.Why
		}
		return err
	}
	return nil
}

// themed is a theme parsed alongside the loading, and when it was done.
type themed struct {
	th  *site.Theme
	err error
	at  time.Time
}

// startTheme parses the theme while the content loads: at 1,000 cases that
// is a twentieth of what the build waits for before its pages.
func startTheme(opt Options) <-chan themed {
	theme := make(chan themed, 1)
	go func() {
		th, err := site.LoadTheme(opt.Templates, opt.Static)
		theme <- themed{th, err, time.Now()}
	}()
	return theme
}

// prepare makes the library of the content (load and check, derive) with
// the theme parsed alongside, and the site from both, timing each stage
// from t. It returns the time the last one
// ended. A Ctrl-C while the content loads need not wait for it: nothing is
// written yet that would need cleaning up. Once the content has loaded
// without errors, the extras that need only the library start.
func prepare(ctx context.Context, opt Options, st *Result, t time.Time, extras *runningExtras) (*site.Site, diag.List, time.Time, error) {
	fsys, err := library.Content(opt.Content)
	if err != nil {
		return nil, diag.List{}, t, err
	}
	before := time.Since(t) // the writer's and the old output's start, counted with the loading as always
	theme := startTheme(opt)
	hist := startHistory(ctx, opt)
	lib, err := library.New(ctx, fsys, library.Options{
		OffHeap: opt.OffHeap,
		History: hist.libraryOption(),
		Loaded: func(lib *cases.Library, topics library.Topics) {
			if opt.Loaded != nil {
				opt.Loaded(len(lib.Cases))
			}
			extras.startLibrary(lib, topics, opt.Offline)
		},
	})
	if err != nil {
		return nil, diag.List{}, t, interrupted(ctx)
	}
	if hist != nil && lib.Ready() {
		if hist.wait(); hist.warning != "" {
			st.Warnings = append(st.Warnings, hist.warning)
		}
	}
	var derive time.Duration
	for i, sg := range lib.Stages {
		switch {
		case i == 0:
			st.Stages = append(st.Stages, library.Stage{Name: "load+check", Took: sg.Took + before})
		case sg.Name == "derive":
			derive = sg.Took
		}
	}
	t = time.Now()
	list := lib.Diags
	if list.Errors() > 0 {
		n := fmt.Sprintf("%d errors", list.Errors())
		if list.Errors() == 1 {
			n = "1 error"
		}
		return nil, list, t, fmt.Errorf("%s in %s; nothing was written", n, opt.Content)
	}
	// "theme+minify" parses, compacts (the minifying) and compiles the
	// templates and minifies the assets, alongside the loading: it is the
	// time the build waited for the theme after that, often none.
	r := <-theme
	if r.at.Before(t) {
		r.at = t
	}
	st.Stages = append(st.Stages, library.Stage{Name: "theme+minify", Took: r.at.Sub(t)})
	if r.err != nil {
		return nil, list, t, r.err
	}
	t = r.at
	s, err := site.New(lib, site.Options{Theme: r.th, Offline: opt.Offline, BaseURL: opt.BaseURL})
	if err != nil {
		return nil, list, t, err
	}
	now := time.Now()
	st.Stages = append(st.Stages, library.Stage{Name: "derive", Took: derive + now.Sub(t)})
	t = now
	st.Cases = len(lib.Lib.Cases)
	st.BaseURL = opt.BaseURL
	if st.BaseURL == "" {
		st.BaseURL = lib.Lib.Settings.BaseURL
	}
	st.RepositoryURL = lib.Lib.Settings.Repository.URL
	for _, d := range lib.Lib.Drafts {
		st.Drafts = append(st.Drafts, d.ID)
	}
	return s, list, t, interrupted(ctx)
}

// startChecklist makes the library's checklist (library.Checklist) on a
// goroutine of its own, alongside the case pages, which render first, and
// the extras, and sends how long that took. Made on first use instead, by
// the first topic page or API file that needs it, it kept every other user
// waiting: in a build of 1,000 cases on a busy machine, the second worker
// and the API each waited a third of a second for it, and a worker that
// waits renders nothing. The goroutine is not waited for when
// the build stops early: it only reads the library, and a Ctrl-C need not
// wait seconds for a checklist nothing will write.
func startChecklist(s *site.Site) <-chan time.Duration {
	took := make(chan time.Duration, 1)
	go func() {
		t := time.Now()
		s.Library().Checklist()
		took <- time.Since(t)
	}()
	return took
}

// waitChecklist adds the checklist's time to the stages once it is made;
// a stopped build does not wait for a checklist nothing will write.
func waitChecklist(ctx context.Context, checklist <-chan time.Duration, st *Result) {
	select {
	case took := <-checklist:
		st.Stages = append(st.Stages, library.Stage{Name: "checklist (alongside)", Took: took})
	case <-ctx.Done():
	}
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
