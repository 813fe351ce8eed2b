// Package build runs a whole build: load and check the content, derive what
// pages share, render every file with a pool of workers and write the result
// into a fresh folder that replaces the output folder only when everything
// succeeded. A failed build leaves the previous output exactly as it was.
package build

import (
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"

	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"incidentlib"
	"incidentlib/internal/api"
	"incidentlib/internal/cases"
	"incidentlib/internal/diag"
	"incidentlib/internal/offheap"
	"incidentlib/internal/site"
)

// Options say what to build and where.
type Options struct {
	Content   string // the content folder
	Out       string // the output folder, replaced as a whole
	Offline   bool   // links that work from disk
	BaseURL   string // overrides site.json's base_url when set
	Templates string // a folder of templates to use instead of the built-in ones
	Static    string // a folder of static files to use instead of the built-in ones
	Workers   int    // render workers; 0 means GOMAXPROCS
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
	lib, list := cases.LoadText(os.DirFS(content), text)
	return lib, list, nil
}

// Sources returns the template and static folders to use.
func Sources(opt Options) (templates, static fs.FS) {
	templates, static = incidentlib.Templates(), incidentlib.Static()
	if opt.Templates != "" {
		templates = os.DirFS(opt.Templates)
	}
	if opt.Static != "" {
		static = os.DirFS(opt.Static)
	}
	return templates, static
}

// Run builds the site. Content problems come back in the list (warnings
// too); err is set when the build did not replace the output folder.
func Run(opt Options) (*Stats, diag.List, error) {
	start := time.Now()
	st := &Stats{Kinds: map[string]int{}}
	stage := func(name string, t0 time.Time) time.Time {
		now := time.Now()
		st.Stages = append(st.Stages, Stage{name, now.Sub(t0)})
		return now
	}
	t := start
	lib, list, err := load(opt.Content, opt.Text)
	if err != nil {
		return nil, list, err
	}
	t = stage("load+check", t)
	if list.Errors() > 0 {
		n := fmt.Sprintf("%d errors", list.Errors())
		if list.Errors() == 1 {
			n = "1 error"
		}
		return nil, list, fmt.Errorf("%s in %s; nothing was written", n, opt.Content)
	}
	st.Cases = len(lib.Cases)
	th, err := site.LoadTheme(Sources(opt))
	if err != nil {
		return nil, list, err
	}
	t = stage("theme+minify", t) // parse, compact (the minifying) and compile templates; minify assets
	s, err := site.New(lib, site.Options{Offline: opt.Offline, BaseURL: opt.BaseURL, Theme: th, Text: opt.Text})
	if err != nil {
		return nil, list, err
	}
	t = stage("derive", t)

	w, err := newWriter(opt.Out)
	if err != nil {
		return nil, list, err
	}
	defer w.abandon()

	// The search index and the API need only the model, so they are made
	// while the pages render: on a machine with few cores this keeps every
	// core busy until the end instead of finishing on one. (Made after the
	// pages, at 10,000 cases the build took 0.3 s longer and 30 MB less.)
	extraErrs := make([]error, len(Extras))
	extraTook := make([]time.Duration, len(Extras))
	extraFiles := make([]atomic.Int64, len(Extras))
	var extras sync.WaitGroup
	for i, extra := range Extras {
		extras.Add(1)
		go func() {
			defer extras.Done()
			t0 := time.Now()
			write := func(path string, data []byte) error {
				extraFiles[i].Add(1)
				return w.write(path, data)
			}
			if err := extra.Write(s, write); err != nil {
				extraErrs[i] = fmt.Errorf("%s: %w", extra.Name, err)
			}
			extraTook[i] = time.Since(t0)
		}()
	}
	jobs := s.Jobs()
	var rendered atomic.Int64
	stopProgress := progress(opt.Progress, &rendered, len(jobs))
	renderErr := render(s, jobs, w, opt.Workers, st, &rendered)
	stopProgress()
	st.Stages = append(st.Stages, Stage{"pages", time.Since(t)},
		Stage{"render (workers)", st.renderTime}, Stage{"write (workers)", st.writeTime})
	s.ReleaseCards() // their memory is free for what is still running
	extras.Wait()
	for i, extra := range Extras {
		st.Stages = append(st.Stages, Stage{extra.Name + " (alongside)", extraTook[i]})
		st.Kinds[extra.Name+" file"] += int(extraFiles[i].Load())
	}
	if err := errors.Join(append([]error{renderErr}, extraErrs...)...); err != nil {
		return nil, list, err
	}
	if opt.Written != nil {
		opt.Written()
	}
	t = time.Now()
	st.Files, st.Bytes = int(w.files.Load()), w.bytes.Load()
	if err := w.commit(); err != nil {
		return nil, list, err
	}
	stage("swap", t)
	st.Total = time.Since(start)
	return st, list, nil
}

// Extra is a part of the site written outside the page jobs, such as the
// search index or the JSON API.
type Extra struct {
	Name  string
	Write func(s *site.Site, write func(path string, data []byte) error) error
}

// Extras are what a build writes besides the pages, alongside them.
var Extras = []Extra{
	{"search index", writeSearch},
	{"api", api.Write},
	{"headers", writeHeaders},
}

// writeHeaders writes _headers, the file several static hosts read for
// response headers: hashed assets may be cached forever, everything under a
// stable name only briefly so that a rebuild shows at once.
func writeHeaders(s *site.Site, write func(string, []byte) error) error {
	var b strings.Builder
	b.WriteString("# Response headers for static hosts that read _headers. Written by incidentlib.\n")
	b.WriteString("/*\n  X-Content-Type-Options: nosniff\n  Referrer-Policy: strict-origin-when-cross-origin\n\n")
	b.WriteString("/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n\n")
	for _, p := range []string{"/", "/index.html", "/404.html", "/en/*", "/ko/*", "/api/*", "/search/*", "/sitemap.xml", "/robots.txt", "/llms.txt"} {
		b.WriteString(p + "\n  Cache-Control: public, max-age=300, must-revalidate\n\n")
	}
	b.WriteString("/*.md\n  Content-Type: text/markdown; charset=utf-8\n")
	return write("_headers", []byte(b.String()))
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

func render(s *site.Site, jobs []site.Job, w *writer, workers int, st *Stats, done *atomic.Int64) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		next  atomic.Int64
		mu    sync.Mutex
		errs  []error
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
			var renderTime, writeTime time.Duration
			defer func() {
				mu.Lock()
				st.renderTime += renderTime
				st.writeTime += writeTime
				mu.Unlock()
			}()
			for {
				n := int(next.Add(1)) - 1
				if n >= len(jobs) {
					return
				}
				j := jobs[n]
				out.Reset()
				t0 := time.Now()
				typ, err := s.Render(j, out)
				t1 := time.Now()
				renderTime += t1.Sub(t0)
				if err == nil {
					err = w.write(j.File(), out.Bytes())
					writeTime += time.Since(t1)
				}
				if err != nil {
					mu.Lock()
					errs = append(errs, fmt.Errorf("%s: %w", j.File(), err))
					mu.Unlock()
					continue
				}
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
	if len(errs) > 0 {
		sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
		return errors.Join(errs...)
	}
	return nil
}

func kindName(j site.Job) string {
	name := [...]string{"case page", "case list", "topic page", "facet page", "home", "language chooser",
		"search page", "prose page", "404", "API page", "feed", "sitemap", "robots.txt", "asset"}[j.Kind]
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

// writer writes files into a temporary sibling of the output folder.
type writer struct {
	out, tmp string
	files    atomic.Int64
	bytes    atomic.Int64
	// dirs holds a hash of every folder made, not its name: at 100,000
	// cases there are 400,000 folders, and a table of hashes is no work for
	// the garbage collector. Two folders with the same hash only cost a
	// failed write and a retry, see write.
	dirsMu sync.Mutex
	dirs   map[uint64]struct{}
	done   bool
}

func newWriter(out string) (*writer, error) {
	out = filepath.Clean(out)
	if out == "." || out == "/" || out == "" {
		return nil, fmt.Errorf("refusing to replace %q: name an output folder such as public", out)
	}
	if info, err := os.Stat(out); err == nil && !info.IsDir() {
		return nil, fmt.Errorf("output %s exists and is not a folder", out)
	}
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".build-")
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return nil, err
	}
	// MkdirTemp names it "./.public.build-…" when out is "public"; the paths
	// mkdir climbs are cleaned by filepath.Join and must meet it.
	tmp = filepath.Clean(tmp)
	return &writer{out: out, tmp: tmp, dirs: map[uint64]struct{}{}}, nil
}

// write stores one file; path is a slash-separated site path. Paths come
// from checked ids and slugs, but are checked again here so that nothing can
// ever be written outside the output folder.
func (w *writer) write(path string, data []byte) error {
	if path == "" || strings.HasPrefix(path, "/") || strings.Contains(path, "\\") {
		return fmt.Errorf("bad output path %q", path)
	}
	for _, seg := range strings.Split(path, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("bad output path %q", path)
		}
	}
	full := filepath.Join(w.tmp, filepath.FromSlash(path))
	if err := w.mkdir(filepath.Dir(full)); err != nil {
		return err
	}
	err := writeFile(full, data)
	if errors.Is(err, fs.ErrNotExist) {
		// The folder's hash was another folder's: make it for real.
		if err = os.MkdirAll(filepath.Dir(full), 0o755); err == nil {
			err = writeFile(full, data)
		}
	}
	if err != nil {
		return err
	}
	w.files.Add(1)
	w.bytes.Add(int64(len(data)))
	return nil
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

// commit swaps the new folder in. The old output is moved aside first and
// removed only after the new one is in place.
func (w *writer) commit() error {
	old := ""
	if _, err := os.Stat(w.out); err == nil {
		old = w.tmp + ".old"
		if err := os.Rename(w.out, old); err != nil {
			return err
		}
	}
	if err := os.Rename(w.tmp, w.out); err != nil {
		if old != "" {
			_ = os.Rename(old, w.out)
		}
		return err
	}
	w.done = true
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

// abandon removes the temporary folder of a build that did not commit.
func (w *writer) abandon() {
	if !w.done {
		_ = os.RemoveAll(w.tmp)
	}
}
