package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"

	"incidentlib/internal/build"
	"incidentlib/internal/diag"
	"incidentlib/internal/history"
	"incidentlib/internal/site"
)

// tuneGC sets how the collector paces itself.
//
// A build keeps the text of the cases off the heap (about 1.2 GB at 100,000
// cases, see cases.LoadOffHeap). While it loads, the collector runs at a
// slow pace under a soft ceiling of 2.25 GiB; once the content has loaded
// (buildLoaded), at Go's default pace (GOGC=100) under a ceiling that
// grows with the library (buildMemoryLimit).
//
// The default pace: it was 120 while the pages cost more, but once they
// and the words got cheaper (2026-12-01) the heap held while the search
// index and the pages run side by side made 120 cross 600 MB at 10,000
// generated cases (max RSS of a build over an earlier output: 120 583 and
// 657 MB, 100 545 and 560 MB; fresh builds, 3 interleaved runs each: 120
// 540-578 MB, 100 523-537 MB), for no CPU the noise would show (medians of
// 4 at 1,000 cases: 2.35 s against 2.30 s user+sys).
//
// The other commands, serve above all, keep their text on the heap, so they
// keep the default pace under a ceiling of 3 GiB.
//
// GOGC and GOMEMLIMIT in the environment win, each for its own setting.
func tuneGC(build bool) {
	pace, limit := os.Getenv("GOGC") == "", os.Getenv("GOMEMLIMIT") == ""
	if !build {
		if limit {
			debug.SetMemoryLimit(3 << 30)
		}
		return
	}
	if pace {
		debug.SetGCPercent(loadingGCPercent)
	}
	if limit {
		debug.SetMemoryLimit(maxBuildMemory)
	}
	if pace || limit {
		buildLoaded = func(cases int) {
			if pace {
				debug.SetGCPercent(100)
			}
			if limit {
				debug.SetMemoryLimit(buildMemoryLimit(cases))
			}
		}
	}
}

// buildMemoryLimit is the soft ceiling of a build of n cases once they
// have loaded. What the heap holds at its fullest grows with the cases (the
// model, the search index's postings, the largest topics' pages and
// files); at Go's default pace alone the heap of a 10,000-case build, with
// 200-250 MB of live data, reached twice that, and the process 780-840 MB
// (max RSS; the cases' text, off the heap, is 120 MB of it). Under this
// ceiling (355 MiB there) it took 544 and 553 MB; 323 MiB took 515 and 523
// MB, 394 MiB 576-601 MB, with no CPU cost that the noise of a loaded
// machine showed (user+sys 49-75 s for each). At 100,000 cases the ceiling
// of 2.25 GiB still left the process at 4.39 GB: the cases' text and
// cards, off the heap, are 1.6 GB of it, and the largest prepare files and
// topics' API files are hundreds of megabytes each while they are made.
func buildMemoryLimit(n int) int64 {
	return min(baseBuildMemory+int64(n)*buildMemoryPerCase, maxBuildMemory)
}

const (
	baseBuildMemory    = 160 << 20
	buildMemoryPerCase = 20 << 10
	maxBuildMemory     = 2304 << 20
)

// While a build loads its content the heap is small and grows fast, with
// the garbage of parsing JSON: at Go's default pace the collector ran about
// 25 times in the first 2 s of a 10,000-case build, for a heap under 40 MB.
// A slower pace until the content has loaded costs nothing at the peak,
// which comes later, while the pages are written.
const loadingGCPercent = 400

// buildLoaded, when set, is called once a build's content of n cases has
// loaded (build.Options.Loaded): tuneGC sets the pace and the ceiling
// there.
var buildLoaded func(n int)

// buildOptions are the build's options and the command's own.
type buildOptions struct {
	build.Options
	Verbose                bool
	CPUProfile, MemProfile string
}

func buildFlags(o *buildOptions, stderr io.Writer) *flag.FlagSet {
	fs := newFlags("build", "[flags]", `Reads the content folder, checks every file, and writes the whole site (pages
in both languages, search index, JSON API, feeds, sitemap) into a new folder
that replaces -out only when everything succeeded.`, stderr)
	fs.StringVar(&o.Content, "content", "content", "content `DIR` to read")
	fs.StringVar(&o.Out, "out", "public", "output `DIR`, replaced as a whole: a new or empty one, or one an earlier build wrote")
	fs.BoolVar(&o.Offline, "offline", false, "write links that name index.html, so the site works when opened from disk")
	fs.StringVar(&o.BaseURL, "base-url", "", "public `URL` of the site, such as https://example.org/incidentlib/ (default: base_url in site.json)")
	fs.StringVar(&o.TemplatesDir, "templates", "", "use templates from this `DIR` instead of the built-in ones")
	fs.StringVar(&o.StaticDir, "static", "", "use static files from this `DIR` instead of the built-in ones")
	fs.StringVar(&o.History, "history", build.HistoryOff, "where the changes list (api/v1/changes.json, {en,ko}/changes.xml) comes from: `git|off`. git reads the content's commits (cases added, updated with the fields changed, withdrawn; the latest "+strconv.Itoa(history.DefaultLimit)+") and, when git is missing, the clone is shallow or git takes over "+history.DefaultTimeout.String()+", says so and uses updated_at; off uses each case's updated_at")
	fs.IntVar(&o.Workers, "workers", 0, "render `N` pages at once (default: number of CPUs)")
	fs.BoolVar(&o.ForceOut, "force-out", false, "replace -out even when it holds files the last build did not write, or has no "+build.Marker+" (never across filesystems)")
	fs.BoolVar(&o.Verbose, "v", false, "print the time of each stage, the files per kind and how many files were written, kept and removed")
	fs.StringVar(&o.CPUProfile, "cpuprofile", "", "write a CPU profile of the build to `FILE` (for go tool pprof)")
	fs.StringVar(&o.MemProfile, "memprofile", "", "write a heap profile to `FILE` when the pages are written, before the old output is replaced")
	return fs
}

func cmdBuild(args []string, stdout, stderr io.Writer) int {
	var bo buildOptions
	fs := buildFlags(&bo, stderr)
	if err := fs.Parse(args); err != nil {
		return flagExit(err)
	}
	o, verbose, cpuprofile, memprofile := bo.Options, bo.Verbose, bo.CPUProfile, bo.MemProfile
	if err := checkProfiles(o, cpuprofile, memprofile); err != nil {
		fmt.Fprintf(stderr, "incidentlib build: %v\n", err)
		return 2
	}
	o.Loaded = buildLoaded
	stopProfile, err := profiles(&o, cpuprofile, memprofile, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "incidentlib build: %v\n", err)
		return 1
	}
	defer stopProfile()
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "incidentlib build: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if o.History != build.HistoryGit && o.History != build.HistoryOff {
		fmt.Fprintf(stderr, "incidentlib build: -history %q: want git or off\n", o.History)
		return 2
	}
	if o.BaseURL != "" && !strings.HasSuffix(o.BaseURL, "/") {
		o.BaseURL += "/"
	}
	if isTerminal(stderr) {
		o.Progress = func(done, total int) {
			fmt.Fprintf(stderr, "\rrendering: %d of %d files", done, total)
		}
	}
	o.Templates, o.Static = theme(o.TemplatesDir, o.StaticDir)
	o.Extras = build.StandardExtras()
	// This process ends after the build, so the text of the cases can live
	// outside the collected heap for good; INCIDENTLIB_OFFHEAP=0 keeps it
	// on the heap, so that a benchmark can measure what that saves.
	o.OffHeap = os.Getenv("INCIDENTLIB_OFFHEAP") != "0"
	ctx, stop := interruptible(stderr)
	defer stop()
	st, list, err := build.Run(ctx, o)
	if o.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K") // clear the progress line
	}
	printBrief(stderr, list, o.Content)
	if err != nil {
		fmt.Fprintf(stderr, "incidentlib build: %v\n", err)
		if errors.Is(err, context.Canceled) {
			return exitInterrupted
		}
		return 1
	}
	printBuilt(stdout, stderr, st, o, verbose)
	return 0
}

// profiles starts the CPU profile of -cpuprofile and has o write the heap
// profile of -memprofile once the files are written; stop ends the CPU
// profile.
func profiles(o *build.Options, cpuprofile, memprofile string, stderr io.Writer) (stop func(), err error) {
	if memprofile != "" {
		o.Written = func() {
			f, err := build.CreateProfile(memprofile)
			if err != nil {
				fmt.Fprintf(stderr, "incidentlib build: %v\n", err)
				return
			}
			defer f.Close()
			if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
				fmt.Fprintf(stderr, "incidentlib build: %v\n", err)
			}
		}
	}
	if cpuprofile == "" {
		return func() {}, nil
	}
	f, err := build.CreateProfile(cpuprofile)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// printBuilt says what a build wrote, where, for which address and how to
// look at it.
func printBuilt(stdout, stderr io.Writer, st *build.Result, o build.Options, verbose bool) {
	for _, l := range st.KindLines() {
		fmt.Fprintln(stdout, "  "+l)
	}
	if verbose {
		for _, s := range st.Stages {
			fmt.Fprintf(stdout, "  %-28s %s\n", s.Name, s.Took.Round(10e3))
		}
		fmt.Fprintf(stdout, "  files: %d written, %d kept as they were, %d removed\n", st.Written, st.Kept, st.Removed)
		fmt.Fprintf(stdout, "  %s\n", engineLine(st.Engines))
	}
	for _, w := range st.Warnings {
		fmt.Fprintf(stderr, "incidentlib build: warning: %s\n", diag.Printable(w))
	}
	fmt.Fprintf(stdout, "%s → %s\n", st.Summary(), o.Out)
	if len(st.Drafts) > 0 {
		fmt.Fprintf(stdout, "  left out: %s (%s), marked \"draft\": true\n", plural(len(st.Drafts), "draft"), strings.Join(st.Drafts, ", "))
	}
	from := "base_url in " + filepath.Join(o.Content, "site.json") + "; -base-url URL or make build BASE_URL=URL sets another"
	if o.BaseURL != "" {
		from = "-base-url"
	}
	fmt.Fprintf(stdout, "  for %s (%s)\n", st.BaseURL, from)
	if w := forkWarning(st.BaseURL, o.BaseURL != "", st.RepositoryURL, gitOrigin(o.Content)); w != "" {
		fmt.Fprintf(stderr, "incidentlib build: warning: %s\n", w)
	}
	if !o.Offline {
		fmt.Fprintf(stdout, "  to look at it: incidentlib serve -content %s, then open http://%s/ (make serve)\n", o.Content, defaultServeAddr)
	} else {
		fmt.Fprintf(stdout, "  to look at it: open %s in a browser\n", filepath.Join(o.Out, "index.html"))
	}
}

// engineLine is the gauge of the template engines in the -v summary: a
// template htmlexec refused, or a page it handed back to the standard
// library, shows nowhere else but as a slower build.
func engineLine(e site.Engines) string {
	line := fmt.Sprintf("htmlexec: %d templates compiled", e.Compiled)
	if len(e.Uncompiled) > 0 {
		line += fmt.Sprintf(", %d left to the standard library (%s)", len(e.Uncompiled), strings.Join(e.Uncompiled, ", "))
	}
	return line + fmt.Sprintf(", %d fallbacks to the standard library at run time", e.Fallbacks)
}

// checkProfiles refuses profile files that would land in the content,
// templates, static or output folders or overwrite a file that is not a
// profile, before any work; and one file for both profiles.
func checkProfiles(o build.Options, cpu, mem string) error {
	for _, f := range []string{cpu, mem} {
		if f == "" {
			continue
		}
		if err := build.CheckProfile(f, o); err != nil {
			return err
		}
	}
	if cpu != "" && mem != "" {
		a, errA := filepath.Abs(cpu)
		b, errB := filepath.Abs(mem)
		if errA == nil && errB == nil && a == b {
			return fmt.Errorf("-cpuprofile and -memprofile name the same file, %s", cpu)
		}
		if ia, err := os.Stat(cpu); err == nil {
			if ib, err := os.Stat(mem); err == nil && os.SameFile(ia, ib) {
				return fmt.Errorf("-cpuprofile and -memprofile name the same file, %s", cpu)
			}
		}
	}
	return nil
}
