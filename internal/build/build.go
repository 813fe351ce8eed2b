// Package build runs a whole build: load and check the content, derive what
// pages share, render every file with a pool of workers and write the result
// into a fresh folder that replaces the output folder only when everything
// succeeded. A failed build leaves the previous output exactly as it was.
package build

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/maphash"

	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"incidentlib/internal/api"
	"incidentlib/internal/cases"
	"incidentlib/internal/diag"
	"incidentlib/internal/site"
	"incidentlib/internal/urls"
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
	// OffHeap keeps the text of the cases and their rendered cards outside
	// the Go heap (cases.LoadOffHeap). That memory is never freed, so only a
	// process that builds once and exits (the CLI's build) sets it.
	OffHeap bool
	// tempMade, when a test sets it, is called with the temporary folder
	// as soon as it exists, to make writes into it fail.
	tempMade func(dir string)
}

// Stats describe a finished build.
type Stats struct {
	Pages  int // HTML pages
	Files  int // all files written
	Bytes  int64
	Cases  int
	Stages []Stage
	Total  time.Duration
	// Kinds counts files per language and kind of page, for the summary.
	Kinds map[string]int
	// Written, Kept and Removed count the files of the output (the marker
	// left out) that this build wrote, that it kept from the earlier output
	// because their bytes were the same (same file, same modification
	// time), and that the earlier output had and this one has not.
	Written, Kept, Removed int
	// Warnings say what went wrong after the new output was in place, such
	// as a part of the old one that could not be removed.
	Warnings []string
	// Engines says which templates htmlexec ran and how often it handed a
	// page back to html/template (see site.Engines).
	Engines site.Engines

	renderTime, writeTime time.Duration // summed over the page workers
}

// Stage is the time one step of the build took.
type Stage struct {
	Name string
	Took time.Duration
}

// Summary is the one line a build ends with.
func (s *Stats) Summary() string {
	return fmt.Sprintf("built %s cases: %d pages, %d files, %s in %s",
		fmtInt(s.Cases), s.Pages, s.Files, fmtBytes(s.Bytes), s.Total.Round(time.Millisecond))
}

func fmtInt(n int) string { return fmt.Sprintf("%d", n) }

func fmtBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// Load reads and checks the content folder.
func Load(content string) (*cases.Library, diag.List, error) {
	return load(content, false)
}

func load(content string, offHeap bool) (*cases.Library, diag.List, error) {
	info, err := os.Stat(content)
	if err != nil {
		return nil, diag.List{}, fmt.Errorf("content folder: %w", err)
	}
	if !info.IsDir() {
		return nil, diag.List{}, fmt.Errorf("content folder %s is not a folder", content)
	}
	if offHeap {
		lib, list := cases.LoadOffHeap(cases.ContentFS(content))
		return lib, list, nil
	}
	lib, list := cases.Load(cases.ContentFS(content))
	return lib, list, nil
}

// loadUnless loads the content unless ctx ends first: at 100,000 cases
// loading takes seconds, and nothing is written yet that would need
// cleaning up, so a Ctrl-C need not wait for it. (The loading goroutine
// then finishes on its own, in a process that is about to exit.)
func loadUnless(ctx context.Context, content string, offHeap bool) (*cases.Library, diag.List, error) {
	type result struct {
		lib  *cases.Library
		list diag.List
		err  error
	}
	done := make(chan result, 1)
	go func() {
		lib, list, err := load(content, offHeap)
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
	st.Engines = s.Engines()
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
	lib, list, err := loadUnless(ctx, opt.Content, opt.OffHeap)
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
	s, err := site.New(lib, site.Options{Offline: opt.Offline, BaseURL: opt.BaseURL, Theme: th})
	if err != nil {
		return nil, list, t, err
	}
	t = stage("derive", t)
	return s, list, t, interrupted(ctx)
}

// runningExtras are the extras being written alongside the pages.
type runningExtras struct {
	list  []Extra
	took  []time.Duration
	files []atomic.Int64
	done  sync.WaitGroup
}

// startExtras starts writing the extras (nil means StandardExtras). The
// search index and the API need only the model, so they are made while the
// pages render: on a machine with few cores this keeps every core busy
// until the end instead of finishing on one. (Made after the pages, at
// 10,000 cases the build took 0.3 s longer and 30 MB less.)
func startExtras(ctx context.Context, stop context.CancelCauseFunc, s *site.Site, w *writer, list []Extra) *runningExtras {
	if list == nil {
		list = StandardExtras()
	}
	r := &runningExtras{list: list, took: make([]time.Duration, len(list)), files: make([]atomic.Int64, len(list))}
	for i, extra := range list {
		r.done.Add(1)
		go func() {
			defer r.done.Done()
			t0 := time.Now()
			write := func(path string, data []byte) error {
				if ctx.Err() != nil {
					return context.Cause(ctx)
				}
				if err := w.write(path, data); err != nil {
					stop(err)
					return err
				}
				r.files[i].Add(1)
				return nil
			}
			if err := extra.Write(s, write); err != nil && ctx.Err() == nil {
				stop(fmt.Errorf("%s: %w", extra.Name, err))
			}
			r.took[i] = time.Since(t0)
		}()
	}
	return r
}

// wait waits for the extras and adds their times and files to st.
func (r *runningExtras) wait(st *Stats) {
	r.done.Wait()
	for i, extra := range r.list {
		st.Stages = append(st.Stages, Stage{extra.Name + " (alongside)", r.took[i]})
		st.Kinds[extra.Name+" file"] += int(r.files[i].Load())
	}
}

// writePages renders and writes every job of the site on opt.Workers
// workers, reporting progress, and records the stage from t.
func writePages(ctx context.Context, stop context.CancelCauseFunc, s *site.Site, w *writer, opt Options, st *Stats, t time.Time) {
	jobs := s.Jobs()
	var rendered atomic.Int64
	stopProgress := progress(opt.Progress, &rendered, len(jobs))
	render(ctx, stop, s, jobs, w, opt.Workers, st, &rendered)
	stopProgress()
	st.Stages = append(st.Stages, Stage{"pages", time.Since(t)},
		Stage{"render (workers)", st.renderTime}, Stage{"write (workers)", st.writeTime})
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

// Extra is a part of the site written outside the page jobs, such as the
// search index or the JSON API.
type Extra struct {
	Name  string
	Write func(s *site.Site, write func(path string, data []byte) error) error
}

// StandardExtras returns what a build of the site writes besides the
// pages, alongside them: the search index, the JSON API with llms.txt, and
// _headers. (The Markdown twins are written with their pages.) Each call returns a new slice, which the
// caller may extend.
func StandardExtras() []Extra {
	return []Extra{
		{"search index", writeSearch},
		{"api", api.Write},
		{"headers", writeHeaders},
	}
}

// writeHeaders writes _headers, the file several static hosts read for
// response headers: the security headers for every file; hashed assets may
// be cached forever, everything under a stable name only briefly so that a
// rebuild shows at once.
func writeHeaders(s *site.Site, write func(string, []byte) error) error {
	var b strings.Builder
	b.WriteString("# Response headers for static hosts that read _headers. Written by incidentlib.\n")
	b.WriteString("/*\n")
	for _, h := range site.SecurityHeaders {
		b.WriteString("  " + h.Name + ": " + h.Value + "\n")
	}
	b.WriteString("\n")
	b.WriteString("/" + urls.AssetDir + "*\n  Cache-Control: public, max-age=31536000, immutable\n\n")
	for _, p := range []string{"", "index.html", urls.NotFound, "en/*", "ko/*", "api/*", urls.SearchDir + "*", urls.Sitemap, urls.Robots, urls.LLMs} {
		b.WriteString("/" + p + "\n  Cache-Control: public, max-age=300, must-revalidate\n\n")
	}
	b.WriteString("/*.md\n  Content-Type: text/markdown; charset=utf-8\n")
	return write(urls.Headers, []byte(b.String()))
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// progress reports the files written so far once a second until stopped.
func progress(report func(done, total int), done *atomic.Int64, total int) (stop func()) {
	if report == nil {
		return func() {}
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				report(int(done.Load()), total)
			}
		}
	}()
	return func() { close(quit); wg.Wait() }
}

// render renders and writes the jobs with a pool of workers until they are
// done or ctx is; the first error stops every worker through stop.
func render(ctx context.Context, stop context.CancelCauseFunc, s *site.Site, jobs []site.Job, w *writer, workers int, st *Stats, done *atomic.Int64) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		next  atomic.Int64
		mu    sync.Mutex
		wg    sync.WaitGroup
		pages atomic.Int64
		kinds = make([]map[string]int, workers)
	)
	for i := 0; i < workers; i++ {
		kinds[i] = map[string]int{}
		wg.Add(1)
		go func(k map[string]int) {
			defer wg.Done()
			out := bufPool.Get().(*bytes.Buffer)
			defer bufPool.Put(out)
			twin := bufPool.Get().(*bytes.Buffer)
			defer bufPool.Put(twin)
			var renderTime, writeTime time.Duration
			defer func() {
				mu.Lock()
				st.renderTime += renderTime
				st.writeTime += writeTime
				mu.Unlock()
			}()
			for ctx.Err() == nil {
				n := int(next.Add(1)) - 1
				if n >= len(jobs) {
					return
				}
				j := jobs[n]
				out.Reset()
				twin.Reset()
				t0 := time.Now()
				typ, err := renderJob(s, j, out, twin)
				t1 := time.Now()
				renderTime += t1.Sub(t0)
				if err != nil {
					stop(fmt.Errorf("rendering %s: %w", j.File(), err))
					return
				}
				if err := w.write(j.File(), out.Bytes()); err != nil {
					stop(err)
					return
				}
				if t, ok := j.Twin(); ok {
					if err := w.write(t.File(), twin.Bytes()); err != nil {
						stop(err)
						return
					}
					k[kindName(t)]++
				}
				writeTime += time.Since(t1)
				if typ == "text/html" {
					pages.Add(1)
				}
				done.Add(1)
				k[kindName(j)]++
			}
		}(kinds[i])
	}
	wg.Wait()
	st.Pages = int(pages.Load())
	for _, k := range kinds {
		for name, n := range k {
			st.Kinds[name] += n
		}
	}
}

// renderJob renders a job to out; a case page's Markdown twin, rendered
// from the same view, goes to twin.
func renderJob(s *site.Site, j site.Job, out, twin *bytes.Buffer) (string, error) {
	if j.Kind == site.KindCase {
		return "text/html", s.RenderCase(j, out, twin)
	}
	return s.Render(j, out)
}

func kindName(j site.Job) string {
	name := [...]string{"case page", "case list", "topic page", "facet page", "home", "language chooser",
		"search page", "prose page", "404", "API page", "feed", "sitemap", "robots.txt", "asset", "Markdown twin"}[j.Kind]
	if j.Lang != "" {
		return j.Lang + " " + name
	}
	return name
}

// KindLines says what the build wrote, one line per language and one for
// the files shared by both, such as "en: 14 case pages, 2 case lists, …".
func (s *Stats) KindLines() []string {
	groups := map[string][]string{}
	var names []string
	for k := range s.Kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		group, kind := "site", k
		if lang, rest, ok := strings.Cut(k, " "); ok && (lang == "en" || lang == "ko") {
			group, kind = lang, rest
		}
		n := s.Kinds[k]
		if n != 1 && kind != "home" && kind != "404" && kind != "robots.txt" && kind != "sitemap" {
			kind += "s" // every kind name is an English noun with a plain plural
		}
		groups[group] = append(groups[group], fmt.Sprintf("%d %s", n, kind))
	}
	var lines []string
	for _, g := range []string{"en", "ko", "site"} {
		if len(groups[g]) > 0 {
			lines = append(lines, g+": "+strings.Join(groups[g], ", "))
		}
	}
	return lines
}

// writer writes files into a temporary sibling of the output folder (a
// folder inside it when it is a mount point). A file whose bytes the
// earlier output holds already is linked from there instead of written, so
// that it keeps its modification time and tools that sync by size and time
// (rsync, aws s3 sync, web servers' ETags) see only what changed. A file is
// never written in place: new bytes always go to a new file, so a link to
// the earlier output never changes it, and a build that stops leaves the
// earlier output whole.
type writer struct {
	given    string // -out as given, for messages
	out, tmp string
	old      string    // the earlier output to compare with, or ""
	prev     *fileList // what the earlier output's marker lists, or nil
	inPlace  bool      // out is a mount point: see commitInPlace
	files    atomic.Int64
	bytes    atomic.Int64
	kept     atomic.Int64 // linked from the earlier output
	replaced atomic.Int64 // written over a file of the earlier output with other bytes
	pathsMu  sync.Mutex
	paths    []string // every file written, for the marker
	// dirs holds a hash of every folder made, not its name: at 100,000
	// cases there are 400,000 folders, and a table of hashes is no work for
	// the garbage collector. Two folders with the same hash only cost a
	// failed write and a retry, see write.
	dirsMu sync.Mutex
	dirs   map[uint64]struct{}
	done   bool
	unlock func()
	made   string // the topmost folder made for the output's parent, or ""
}

// newWriter makes the temporary folder for the output t (which outTarget
// has judged and resolved), after removing those that killed builds of the
// same output left behind, and locks it as this build's. The marker goes in
// first, so that a folder left by this build, too, is known for what it
// is, and so that a full disk shows before any work. Errors name the
// output as given, never the temporary folder.
func newWriter(t target, given string) (*writer, error) {
	out := filepath.Clean(t.out)
	parent := filepath.Dir(out)
	fail := func(err error) error {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot write the output folder %s: %w", given, err)
	}
	made := topMissing(parent)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fail(err)
	}
	removeStale(out)
	where := parent
	if t.inPlace {
		where = out
	}
	tmp, err := os.MkdirTemp(where, tempPrefix(out)+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		removeMade(made)
		return nil, fail(err)
	}
	w := &writer{given: given, out: out, tmp: filepath.Clean(tmp), prev: t.old, inPlace: t.inPlace, dirs: map[uint64]struct{}{}, made: made}
	if t.exists {
		w.old = out
	}
	if w.unlock, err = lockTemp(tmp); err != nil {
		w.abandon()
		return nil, fail(err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		w.abandon()
		return nil, fail(err)
	}
	if err := writeFile(filepath.Join(tmp, Marker), []byte(markerHead)); err != nil {
		w.abandon()
		return nil, fail(err)
	}
	return w, nil
}

// topMissing returns the topmost folder of dir's path that does not exist,
// or "" when dir exists.
func topMissing(dir string) string {
	top := ""
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || d == filepath.Dir(d) {
			return top
		}
		top = d
	}
}

// removeMade removes the folders a failed build made for the output's
// parent, as far as they are empty.
func removeMade(made string) {
	if made == "" {
		return
	}
	var dirs []string
	_ = filepath.WalkDir(made, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = os.Remove(dirs[i])
	}
}

// write stores one file; path is a slash-separated site path. Paths come
// from checked ids and slugs, but are checked again here so that nothing can
// ever be written outside the output folder.
func (w *writer) write(path string, data []byte) error {
	if !validPath(path) {
		return fmt.Errorf("bad output path %q", path)
	}
	full := filepath.Join(w.tmp, filepath.FromSlash(path))
	var kept, existed bool
	err := w.mkdir(filepath.Dir(full))
	if err == nil {
		kept, existed, err = w.place(path, full, data)
	}
	if errors.Is(err, fs.ErrNotExist) {
		// The folder's hash was another folder's: make it for real.
		if err = os.MkdirAll(filepath.Dir(full), 0o755); err == nil {
			kept, existed, err = w.place(path, full, data)
		}
	}
	if err != nil {
		// The temporary folder's name means nothing to the reader: name the
		// file by its place in the output.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("writing %s: %w", filepath.Join(w.out, filepath.FromSlash(path)), err)
	}
	w.files.Add(1)
	w.bytes.Add(int64(len(data)))
	switch {
	case kept:
		w.kept.Add(1)
	case existed:
		w.replaced.Add(1)
	}
	w.pathsMu.Lock()
	w.paths = append(w.paths, path)
	w.pathsMu.Unlock()
	return nil
}

// place puts data at full (path in the output): linked from the earlier
// output when that holds the same bytes at path, written otherwise. kept
// says it was linked (or, across filesystems, copied with its time);
// existed, that the earlier output had a file at path.
func (w *writer) place(path, full string, data []byte) (kept, existed bool, err error) {
	if w.old == "" {
		return false, false, writeFile(full, data)
	}
	old := filepath.Join(w.old, filepath.FromSlash(path))
	same, existed, mtime := sameFile(old, data)
	if !same {
		return false, existed, writeFile(full, data)
	}
	err = os.Link(old, full)
	if errors.Is(err, fs.ErrExist) {
		if err = os.Remove(full); err == nil {
			err = os.Link(old, full)
		}
	}
	if err == nil {
		return true, true, nil
	}
	// No hard links here (or not across these folders): a copy with the
	// old time is as good for whoever syncs the output.
	if err := writeFile(full, data); err != nil {
		return false, true, err
	}
	return true, true, os.Chtimes(full, mtime, mtime)
}

// mkdir makes a folder of the output and the folders above it, each with
// one system call, once: most files of a site sit in a folder of their own.
func (w *writer) mkdir(dir string) error {
	if dir == w.tmp || dir == filepath.Dir(dir) {
		return nil // the top: the output folder, or the root it is not under
	}
	h := maphash.String(dirSeed, dir)
	w.dirsMu.Lock()
	_, ok := w.dirs[h]
	w.dirsMu.Unlock()
	if ok {
		return nil
	}
	if err := w.mkdir(filepath.Dir(dir)); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	w.dirsMu.Lock()
	w.dirs[h] = struct{}{}
	w.dirsMu.Unlock()
	return nil
}

var dirSeed = maphash.MakeSeed()

// writeMarker replaces the marker in the temporary folder by the list of
// what this build wrote; when the earlier output's marker is the same, it
// is kept like any other file.
func (w *writer) writeMarker() error {
	full := filepath.Join(w.tmp, Marker)
	if err := os.Remove(full); err != nil {
		return err
	}
	w.pathsMu.Lock()
	list := newFileList(w.paths)
	w.pathsMu.Unlock()
	_, _, err := w.place(Marker, full, markerBytes(list))
	return err
}

// commit swaps the new folder in and returns warnings about what went wrong
// after that; an error means the output was not replaced. Where the system
// can, the two folders trade places in one step and the old output, now
// under the temporary name, is removed; elsewhere the old output is moved
// aside first and removed only after the new one is in place. An output
// that is a mount point has its entries replaced instead (commitInPlace).
func (w *writer) commit() ([]string, error) {
	if err := w.writeMarker(); err != nil {
		return nil, fmt.Errorf("writing %s: %w", filepath.Join(w.out, Marker), err)
	}
	if w.inPlace {
		return w.commitInPlace()
	}
	old := ""
	if _, err := os.Lstat(w.out); err == nil {
		swapped, err := exchange(w.tmp, w.out)
		if err != nil {
			return nil, fmt.Errorf("replacing %s: %w", w.given, err)
		}
		if swapped {
			old = w.tmp
		} else {
			old = w.tmp + ".old"
			if err := os.Rename(w.out, old); err != nil {
				return nil, fmt.Errorf("replacing %s: %w", w.given, err)
			}
		}
	}
	if old != w.tmp {
		if err := os.Rename(w.tmp, w.out); err != nil {
			if old != "" {
				_ = os.Rename(old, w.out)
			}
			return nil, fmt.Errorf("replacing %s: %w", w.given, err)
		}
	}
	w.done = true
	w.release()
	return w.removeOld(old), nil
}

// removeOld removes the old output, moved to dir, and says what it could
// not remove: the new output is in place whatever happens here.
func (w *writer) removeOld(dir string) []string {
	if dir == "" {
		return nil
	}
	skipped, err := removeTree(dir)
	var warnings []string
	if len(skipped) > 0 {
		warnings = append(warnings, fmt.Sprintf("the new output is in place; the old one, moved to %s, holds another filesystem (%s), left alone with the folders above it", dir, listNames(skipped)))
	}
	if err != nil {
		warnings = append(warnings, fmt.Sprintf("the new output is in place; the old one, moved to %s, could not be removed completely: %v", dir, err))
	}
	return warnings
}

// commitInPlace replaces the entries of an output that is a mount point,
// which cannot be renamed: each entry trades places with the new one (on
// Linux in one step), the entries the new output has not are moved into
// the temporary folder, which is removed with the old entries in it. While
// the entries move, the marker lists both the old and the new files, so
// that an output left half way by a killed build is still known as one.
func (w *writer) commitInPlace() ([]string, error) {
	fail := func(err error) ([]string, error) {
		return nil, fmt.Errorf("replacing the contents of %s (a mount point) stopped half way: %w; build again to finish", w.given, err)
	}
	both := append([]string(nil), w.paths...)
	if w.prev != nil {
		both = append(both, w.prev.files...)
	}
	sort.Strings(both)
	both = slices.Compact(both)
	union := filepath.Join(w.out, tempPrefix(w.out)+"marker")
	if err := writeFile(union, markerBytes(&fileList{files: both})); err != nil {
		return nil, fmt.Errorf("replacing %s: %w", w.given, err)
	}
	if err := os.Rename(union, filepath.Join(w.out, Marker)); err != nil {
		os.Remove(union)
		return nil, fmt.Errorf("replacing %s: %w", w.given, err)
	}
	fresh, err := os.ReadDir(w.tmp)
	if err != nil {
		return fail(err)
	}
	current, err := os.ReadDir(w.out)
	if err != nil {
		return fail(err)
	}
	has := map[string]bool{}
	for _, e := range withoutTemps(current, w.out) {
		has[e.Name()] = true
	}
	// The marker last: until it moves, the union stands.
	sort.SliceStable(fresh, func(i, j int) bool { return fresh[j].Name() == Marker && fresh[i].Name() != Marker })
	for _, e := range fresh {
		from, to := filepath.Join(w.tmp, e.Name()), filepath.Join(w.out, e.Name())
		if has[e.Name()] {
			delete(has, e.Name())
			swapped, err := exchange(from, to)
			if err != nil {
				return fail(err)
			}
			if swapped {
				continue
			}
			if err := os.Rename(to, from+tempMark+"old"); err != nil {
				return fail(err)
			}
		}
		if err := os.Rename(from, to); err != nil {
			return fail(err)
		}
	}
	for name := range has {
		if err := os.Rename(filepath.Join(w.out, name), filepath.Join(w.tmp, name)); err != nil {
			return fail(err)
		}
	}
	w.done = true
	w.release()
	return w.removeOld(w.tmp), nil
}

// release gives up the lock of the temporary folder.
func (w *writer) release() {
	if w.unlock != nil {
		w.unlock()
		w.unlock = nil
	}
}

// abandon removes the temporary folder of a build that did not commit,
// and the folders made for it.
func (w *writer) abandon() {
	if !w.done {
		_, _ = removeTree(w.tmp)
		w.release()
		removeMade(w.made)
	}
}
