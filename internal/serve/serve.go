// Package serve owns "incidentlib serve", the local preview: it keeps a
// model of the library (package library) and the site made from it
// (package site) in memory, renders each page when it is asked for, watches
// the content, templates and static folders (package watch), makes the next
// library from only what a save changed, and tells open pages to reload
// themselves. The files besides the pages (search index, API) are the
// extras the command passes, made on first request.
//
// The state a request sees is one immutable model (library, site, problems,
// version), swapped atomically after each rebuild, so that a request never
// sees half of a change. Content or template errors do not stop the server:
// every page shows them, with file and line, until the files are fixed.
package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/diag"
	"incidentlib/internal/httpsafe"
	"incidentlib/internal/library"
	"incidentlib/internal/site"
	"incidentlib/internal/urls"
	"incidentlib/internal/watch"
)

// Options say what to preview and where.
type Options struct {
	Content string // the content folder
	// Templates and Static are folders to use instead of the built-in
	// files, watched for edits. Empty means the built-in files, as for a
	// build: a checkout's ./templates is read only when named, so the
	// preview never shows a look the build does not publish.
	Templates string
	Static    string
	// BuiltinTemplates and BuiltinStatic are the theme used when no folder
	// is given: the command passes the copies embedded in the binary.
	BuiltinTemplates, BuiltinStatic fs.FS
	// Extras are the files served besides the pages, made on first
	// request; the command passes build.StandardExtras(), the files a build
	// writes besides the pages. Nil means none.
	Extras   []site.Extra
	BaseURL  string        // overrides site.json's base_url in canonical links
	Addr     string        // where the listener given to Serve listens, such as 127.0.0.1:1313
	Log      io.Writer     // the terminal; nil means nowhere
	Debounce time.Duration // quiet time that ends a burst of file events; 0 means 50 ms

	// RequestTimeout is the longest a request may take, from its start
	// to the last byte of its answer; 0 means DefaultRequestTimeout. The
	// reload event stream has no end.
	RequestTimeout time.Duration
	// MaxConnsPerAddr is the most connections one client address may
	// hold; 0 means a quarter of the cap (httpsafe.Limits.PerAddr).
	// This machine's addresses are not capped.
	MaxConnsPerAddr int

	maxConns int // the connection cap; 0 means httpsafe.defaultMaxConns (tests set it low)
}

// Server is a running preview. Create it with New; Serve it once.
type Server struct {
	opt       Options
	content   fs.FS
	templates fs.FS
	static    fs.FS
	roots     []watch.Root // folders to watch

	live     library.Live[model] // the current model, and the next after each save
	stopping chan struct{}       // closed when shutdown starts: event streams end
	logMu    sync.Mutex
}

// New loads the content once and derives the site. Problems in the content
// or the templates are not an error here: the pages show them. The error is
// for a content folder that is missing or not a folder.
func New(opt Options) (*Server, error) {
	if opt.Debounce <= 0 {
		opt.Debounce = 50 * time.Millisecond
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	if opt.RequestTimeout <= 0 {
		opt.RequestTimeout = DefaultRequestTimeout
	}
	if opt.BaseURL != "" && !strings.HasSuffix(opt.BaseURL, "/") {
		opt.BaseURL += "/"
	}
	if opt.BaseURL != "" {
		if err := cases.CheckBaseURL(opt.BaseURL); err != nil {
			return nil, fmt.Errorf("base URL: %w", err)
		}
	}
	s := &Server{opt: opt, stopping: make(chan struct{})}
	if err := s.addRoot("content", opt.Content); err != nil {
		return nil, err
	}
	var err error
	if s.content, err = library.Content(opt.Content); err != nil {
		return nil, err
	}
	if s.templates, err = s.pick("templates", opt.Templates, opt.BuiltinTemplates); err != nil {
		return nil, err
	}
	if s.static, err = s.pick("static", opt.Static, opt.BuiltinStatic); err != nil {
		return nil, err
	}
	s.live.Next = s.next
	s.live.Library = func(m *model) *library.Library { return m.lib }
	s.live.Swapped = func(prev, next *model, what string) {
		s.report(prev, next, what)
		if prev != nil {
			close(prev.next)
		}
		if next.lib.Stale() {
			go s.relate(next) // late.go
		}
	}
	s.live.Start("started")
	return s, nil
}

// pick returns the folder to read templates or static files from: dir when
// given, watched, else the built-in files, as a build takes them, so that
// the preview shows what a build of the same flags publishes.
func (s *Server) pick(kind, dir string, builtin fs.FS) (fs.FS, error) {
	if dir == "" {
		return builtin, nil
	}
	if err := s.addRoot(kind, dir); err != nil {
		return nil, err
	}
	return cases.ContentFS(dir), nil // the content's jail (see cmd/incidentlib's theme)
}

// addRoot records a folder to watch, which must exist.
func (s *Server) addRoot(kind, dir string) error {
	info, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("%s folder: %w", kind, err)
	case !info.IsDir():
		return fmt.Errorf("%s folder %s is not a folder", kind, dir)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	s.roots = append(s.roots, watch.Root{Kind: kind, Dir: abs, Name: dir, Reads: cases.Reads})
	return nil
}

// version is the version of the model now served; it changes with every
// rebuild, successful or not.
func (s *Server) version() uint64 { return s.live.Current().version }

// Serve serves on ln and watches the folders until ctx is done. The
// folders are watched before the first request is answered, so a client
// that got an answer knows that no later save will be missed. Then it shuts
// down: open event streams and requests waiting for a page end, answers
// being sent get stopGrace to finish and are then cut off, the watcher is
// closed. It returns nil after a shutdown.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	w, err := watch.New(s.roots, s.opt.Debounce, func(format string, args ...any) {
		s.logf("incidentlib serve: "+format, args...)
	})
	if err != nil {
		ln.Close()
		return err
	}
	srv, ln := httpsafe.NewServer(s.handler(), ln, httpsafe.Limits{MaxConns: s.opt.maxConns, PerAddr: s.opt.MaxConnsPerAddr, Request: s.opt.RequestTimeout})
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	watchCtx, stopWatch := context.WithCancel(context.Background())
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		s.live.Run(watchCtx, w)
	}()

	var names []string
	for _, r := range s.roots {
		names = append(names, r.Name)
	}
	url, public := httpsafe.ListenURL(ln.Addr())
	if public {
		s.logf("incidentlib serve: "+httpsafe.PublicWarning, ln.Addr())
	}
	s.logf("incidentlib serve: %s (watching %s; Ctrl-C to stop)\n", url, strings.Join(names, ", "))

	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-served:
	}
	close(s.stopping) // event streams and requests waiting for a page end (deadline.go)
	go httpsafe.DropSenders(ln, httpsafe.SenderGrace)
	shutCtx, cancel := context.WithTimeout(context.Background(), stopGrace)
	defer cancel()
	if err = srv.Shutdown(shutCtx); errors.Is(err, context.DeadlineExceeded) {
		// Answers still being written to clients that read slowly: the
		// preview stops anyway.
		srv.Close()
		s.logf("incidentlib serve: answers still being sent after %v were cut off\n", stopGrace)
		err = nil
	}
	stopWatch()
	w.Close()
	<-watched
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return serveErr
	}
	return err
}

// logf writes to the terminal; rebuilds and the start line come from
// different goroutines.
func (s *Server) logf(format string, args ...any) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.opt.Log, format, args...)
}

// model is one immutable state of the preview: the library, its site,
// the pages it serves, and what the error page shows.
type model struct {
	version uint64
	// lib is the library and its problems; theme is the parsed theme,
	// kept across content edits (nil when the content had errors before
	// one was parsed); site is nil when there are problems.
	lib   *library.Library
	theme *site.Theme
	site  *site.Site
	// problems is what the error page lists: the content's errors and
	// warnings, or the template error.
	problems diag.List
	// index finds the job of an output file ("en/cases/IL-0495/index.html"),
	// through job (index.go); sitemaps are the parts of a split sitemap.
	index    *fileIndex
	sitemaps sitemapParts
	timings  []timing

	extraList  []site.Extra // what extraFiles runs
	extrasOnce sync.Once
	extras     map[string][]byte
	extrasErr  error

	// loaded is set when this model or one before it had no problems:
	// /healthz then says "degraded" rather than failing (health.go).
	loaded bool

	next  chan struct{} // closed when a newer model replaces this one
	cache pageCache     // pages rendered for this model
}

type timing struct {
	name string
	took time.Duration
}

// build makes the next model from cur (nil for the first) for the change
// c (library.Live.Next): a change of templates or static files needs them
// parsed again but no content reading.
func (s *Server) build(cur *model, c library.Change) *model {
	m := &model{next: make(chan struct{}), extraList: s.opt.Extras}
	if cur == nil {
		// Start from the clock, so that a restarted server never repeats a
		// version an open page already has and every page reloads.
		m.version = uint64(time.Now().UnixMilli())
	} else {
		m.version = cur.version + 1
	}
	// The preview is where a draft is read: the drafts without errors are
	// among its cases, marked.
	opt := library.Options{Changed: c.Content, ReadAll: c.Full, Drafts: true, LateRelated: true}
	if cur != nil {
		opt.Previous = cur.lib
		// A content edit keeps the parsed templates and minified static
		// files; only a change to those folders (or a first build) parses
		// them again.
		if !c.Theme {
			m.theme = cur.theme
		}
	}
	m.lib, _ = library.New(context.Background(), s.content, opt) // no error without a deadline
	for _, sg := range m.lib.Stages {
		m.timings = append(m.timings, timing{sg.Name, sg.Took})
	}
	if m.lib.Diags.Errors() > 0 {
		m.problems = m.lib.Diags
		return m
	}
	t := time.Now()
	if m.theme == nil {
		th, err := site.LoadTheme(s.templates, s.static)
		m.timings = append(m.timings, timing{"theme", time.Since(t)})
		if err != nil {
			m.problems = s.templateProblems(err)
			return m
		}
		m.theme, t = th, time.Now()
	}
	st, err := site.New(m.lib, site.Options{Theme: m.theme, BaseURL: s.opt.BaseURL, Root: "/"})
	m.timings = append(m.timings, timing{"site", time.Since(t)})
	if err != nil {
		m.problems = s.templateProblems(err)
		return m
	}
	m.site = st
	t = time.Now()
	m.index = nextIndex(cur, m)
	m.timings = append(m.timings, timing{"index", time.Since(t)})
	return m
}

// report prints a rebuild's outcome: every error each time (they are the
// state of the content), warnings only when they are new, so that a save
// does not repeat the same warnings, and one line with the time taken.
func (s *Server) report(prev, m *model, what string) {
	var before []diag.List
	if prev != nil {
		before = []diag.List{prev.problems, prev.lib.Diags}
	}
	var b strings.Builder
	shown := m.problems.Unseen(before...)
	if m.site != nil {
		// Without errors the problems are empty and the warnings are in
		// diags.
		shown = append(shown, m.lib.Diags.Unseen(before...)...)
	}
	// Every error and the first warnings, the first problems of each file
	// in full, then how many more; the other warnings counted by kind.
	all := diag.List{Items: shown}
	if prev == nil {
		// The first build shows its problems with the count of those the
		// lists dropped (past diag.MaxKept) in the summary.
		all = diag.List{}
		all.Merge(m.problems)
		if m.site != nil {
			all.Merge(m.lib.Diags)
		}
	}
	brief, more := all.Brief(diag.ShownWarnings)
	brief.Report(diag.ShownPerFile, func(d diag.Diag) {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}, func(file string, left int) {
		b.WriteString(diag.More(file, left))
		b.WriteByte('\n')
	})
	if more != "" {
		b.WriteString(more + "\n")
	}
	var total time.Duration
	var parts []string
	for _, t := range m.timings {
		total += t.took
		parts = append(parts, fmt.Sprintf("%s %d", t.name, t.took.Milliseconds()))
	}
	n := 0
	if m.lib.Lib != nil {
		n = len(m.lib.Lib.Cases)
	}
	if m.site != nil {
		fmt.Fprintf(&b, "incidentlib serve: %s: %d cases ready in %d ms (%s ms)\n", what, n, total.Milliseconds(), strings.Join(parts, ", "))
		// A draft's problems are on its own page, not in the list above.
		for _, d := range m.lib.Lib.Drafts {
			if k := d.Problems.Errors(); k > 0 {
				fmt.Fprintf(&b, "incidentlib serve: draft %s: %s left, listed at /%s\n", d.ID, plural(k, "problem"), urls.Case(cases.Languages[0], d.ID))
			}
		}
	} else {
		fmt.Fprintf(&b, "incidentlib serve: %s: %s, %s; the pages show them until they are fixed\n", what,
			plural(m.problems.Errors(), "error"), plural(m.problems.Warnings(), "warning"))
	}
	s.logf("%s", b.String())
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
