// Command benchhugo times incidentlib beside Hugo on the same generated
// library, for `make bench-hugo`. For each size it generates the library
// once (kept under .cache/bench, shared with `make bench`), writes it once
// as a Hugo site with a minimal theme of our own that makes the same page
// set (case pages, a page per facet and per topic, the case list 20 to a
// page, home, in both languages; see site.go), and then builds both in turn,
// alternating which goes first, into fresh folders under -tmp. It prints the
// medians of wall and CPU time, the peak memory and what each wrote, and how
// many times faster incidentlib was.
//
// Hugo is the pinned release installed with go install into .cache/bin when
// it is missing there (some minutes of compiling, once). Where Pagefind is
// installed (npm ci puts the pinned one in node_modules; -pagefind-prefix
// names another npm folder), each Hugo run is followed by Pagefind over
// Hugo's pages, timed on its own: "hugo+pagefind" is the two together, the
// nearest a Hugo site comes to the search incidentlib builds in.
//
//	go run ./cmd/benchhugo [-sizes 1000,10000] [-runs 3] [-tmp DIR] [-pagefind-prefix DIR]
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
)

// hugoVersion is the Hugo release compared against.
const hugoVersion = "v0.165.0"

type result struct {
	wall, cpu time.Duration
	maxRSS    int64
	files     int
	bytes     int64
	pages     map[string]int // HTML files under each language's folder
}

func main() {
	sizes := flag.String("sizes", "1000,10000", "comma-separated library `sizes`")
	runs := flag.Int("runs", 3, "builds per size and tool")
	tmp := flag.String("tmp", defaultTmp(), "`folder` for build output; the default, a tmpfs where there is one, takes the disk out of the figures")
	cache := flag.String("cache", ".cache/bench", "`folder` where generated libraries and their Hugo sites are kept between runs")
	hugo := flag.String("hugo", ".cache/bin/hugo", "the Hugo `binary`; installed there with go install when missing")
	prefix := flag.String("pagefind-prefix", ".", "npm `folder` holding pagefind (npm ci fills the repository's); without it Hugo runs alone")
	pfMax := flag.Int("pagefind-max", 10000, "run Pagefind after Hugo only on libraries of at most this many `cases`")
	flag.Parse()
	if *runs < 1 {
		fail("-runs must be at least 1")
	}

	must(os.MkdirAll(*cache, 0o755))
	bin := filepath.Join(*cache, "incidentlib")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/incidentlib").CombinedOutput(); err != nil {
		fail("go build: %v\n%s", err, out)
	}
	must(ensureHugo(*hugo))
	version, _ := exec.Command(*hugo, "version").Output()
	fmt.Printf("incidentlib beside %s: %d CPUs (GOMAXPROCS %d), output under %s\n\n",
		strings.TrimSpace(string(version)), runtime.NumCPU(), runtime.GOMAXPROCS(0), *tmp)

	pagefind := findPagefind(*prefix)
	if pagefind == "" {
		fmt.Fprintf(os.Stderr, "benchhugo: no pagefind in %s/node_modules (npm ci): Hugo runs alone\n", *prefix)
	}
	rows := []string{fmt.Sprintf("%-8s %-14s %4s %10s %10s %6s %9s %9s %9s %13s %13s", "cases", "tool", "runs", "wall", "cpu", "cpu%", "peak mem", "files", "bytes", "vs hugo", "vs h+pf")}
	var likeNote []string
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			fail("bad size %q", f)
		}
		content, hsite := libraries(*cache, n)
		b := bench{runs: *runs, pfMax: *pfMax, tmp: *tmp, bin: bin, hugo: *hugo, pagefind: pagefind}
		ours, theirs, withPF := b.run(n, content, hsite)
		o, h := medianOf(ours), medianOf(theirs)
		vsPF := ""
		if len(withPF) > 0 {
			vsPF = times(medianOf(withPF), o)
		}
		likeNote = append(likeNote, likeWithLike(n, o.pages, h.pages))
		rows = append(rows, row(n, "incidentlib", ours, o, times(h, o), vsPF))
		rows = append(rows, row(n, "hugo", theirs, h, "", ""))
		if len(withPF) > 0 {
			rows = append(rows, row(n, "hugo+pagefind", withPF, medianOf(withPF), "", ""))
		}
	}
	fmt.Fprintln(os.Stderr)
	for _, r := range rows {
		fmt.Println(r)
	}
	fmt.Println()
	for _, l := range likeNote {
		fmt.Println(l)
	}
	fmt.Println("\nmedians of wall and CPU time (user + system); peak memory is the largest of the runs. Hugo writes")
	fmt.Println("the pages only; incidentlib also writes the Markdown twins, the JSON API, the search index and feeds.")
	fmt.Println("hugo+pagefind: each Hugo run followed by Pagefind over its pages (files and bytes are both together).")
	fmt.Println("vs hugo, vs h+pf: how many times faster incidentlib was, by wall time / by CPU time.")
}

// libraries returns the generated library of n cases kept in cache, and
// the Hugo site made from it, making them when they are not there.
func libraries(cache string, n int) (content, hsite string) {
	content = filepath.Join(cache, fmt.Sprintf("lib-%d-seed1", n))
	if _, err := os.Stat(filepath.Join(content, cases.SiteFile)); err != nil {
		os.RemoveAll(content)
		t0 := time.Now()
		must(gencases.WriteDir(content, gencases.Options{N: n, Seed: 1}))
		fmt.Fprintf(os.Stderr, "generated %d cases in %v\n", n, time.Since(t0).Round(time.Millisecond))
	}
	hsite = filepath.Join(cache, fmt.Sprintf("hugo-%d-seed1", n))
	if _, err := os.Stat(filepath.Join(hsite, "hugo.toml")); err != nil {
		os.RemoveAll(hsite)
		must(writeHugoSite(content, hsite))
	}
	return content, hsite
}

// bench is how the tools are run: how often, where and which binaries.
type bench struct {
	runs, pfMax              int
	tmp, bin, hugo, pagefind string
}

// run builds a library of n cases b.runs times with each tool, taking
// turns at going first, and returns incidentlib's runs, Hugo's, and
// Hugo's each followed by Pagefind (none without pagefind, or over pfMax).
func (b bench) run(n int, content, hsite string) (ours, theirs, withPF []result) {
	for i := range b.runs {
		order := []string{"incidentlib", "hugo"}
		if i%2 == 1 {
			order[0], order[1] = order[1], order[0]
		}
		for _, tool := range order {
			dir, err := os.MkdirTemp(b.tmp, "benchhugo-")
			must(err)
			out := filepath.Join(dir, "public")
			var r result
			if tool == "hugo" {
				r = timed(exec.Command(b.hugo, "--quiet", "--source", hsite, "--destination", out, "--cacheDir", filepath.Join(dir, "cache")), out)
				theirs = append(theirs, r)
				if b.pagefind != "" && n <= b.pfMax {
					pf := timed(exec.Command(b.pagefind, "--site", out, "--quiet"), out)
					withPF = append(withPF, result{wall: r.wall + pf.wall, cpu: r.cpu + pf.cpu, maxRSS: max(r.maxRSS, pf.maxRSS), files: pf.files, bytes: pf.bytes})
					fmt.Fprintf(os.Stderr, "%d cases: pagefind after hugo run %d: %s\n", n, i+1, round(pf.wall))
				}
			} else {
				r = timed(exec.Command(b.bin, "build", "-content", content, "-out", out), out)
				ours = append(ours, r)
			}
			os.RemoveAll(dir)
			fmt.Fprintf(os.Stderr, "%d cases: %s run %d of %d: %s\n", n, tool, i+1, b.runs, round(r.wall))
		}
	}
	return ours, theirs, withPF
}

func row(n int, tool string, rs []result, m result, vs, vsPF string) string {
	var peak int64
	for _, r := range rs {
		peak = max(peak, r.maxRSS)
	}
	return fmt.Sprintf("%-8d %-14s %4d %10s %10s %5.0f%% %8dM %9d %8.1fM %13s %13s", n, tool, len(rs), round(m.wall), round(m.cpu),
		100*m.cpu.Seconds()/m.wall.Seconds(), peak>>20, m.files, float64(m.bytes)/(1<<20), vs, vsPF)
}

// times says how many times faster ours was than theirs, by wall time and
// by CPU time (which a busy machine blurs less).
func times(theirs, ours result) string {
	return fmt.Sprintf("%.1f× / %.1f×", theirs.wall.Seconds()/ours.wall.Seconds(), theirs.cpu.Seconds()/ours.cpu.Seconds())
}

// likeWithLike says how many HTML pages each tool wrote per language at n
// cases, and whether they are within a tenth of each other: the comparison
// is only fair if Hugo makes as many pages in as many languages as we do.
func likeWithLike(n int, ours, theirs map[string]int) string {
	var parts []string
	fair := len(ours) == len(theirs)
	for _, lang := range cases.Languages {
		o, t := ours[lang], theirs[lang]
		parts = append(parts, fmt.Sprintf("%s %d / %d", lang, o, t))
		if o == 0 || t == 0 || float64(max(o, t))/float64(min(o, t)) > 1.1 {
			fair = false
		}
	}
	verdict := "like with like (within 10% per language)"
	if !fair {
		verdict = "NOT like with like: the page counts differ by more than 10%"
	}
	return fmt.Sprintf("%d cases, HTML pages incidentlib / hugo: %s: %s", n, strings.Join(parts, ", "), verdict)
}

// findPagefind returns the platform binary of Pagefind in the npm folder
// prefix, or "" when it is not installed.
func findPagefind(prefix string) string {
	for _, name := range []string{"pagefind_extended", "pagefind"} {
		if found, _ := filepath.Glob(filepath.Join(prefix, "node_modules", "@pagefind", "*", "bin", name)); len(found) == 1 {
			return found[0]
		}
	}
	return ""
}

// medianOf returns the run of median wall time, with the median CPU time.
func medianOf(rs []result) result {
	s := append([]result(nil), rs...)
	sort.Slice(s, func(i, j int) bool { return s[i].wall < s[j].wall })
	m := s[len(s)/2]
	sort.Slice(s, func(i, j int) bool { return s[i].cpu < s[j].cpu })
	m.cpu = s[len(s)/2].cpu
	return m
}

// ensureHugo installs the pinned Hugo at path when it is not there.
func ensureHugo(path string) error {
	if _, err := os.Stat(path); err == nil {
		return nil
	}
	gobin, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return err
	}
	if filepath.Base(path) != "hugo" {
		return fmt.Errorf("%s is missing, and go install can only write a binary named hugo", path)
	}
	fmt.Fprintf(os.Stderr, "installing Hugo %s into %s (some minutes of compiling, once)\n", hugoVersion, gobin)
	cmd := exec.Command("go", "install", "github.com/gohugoio/hugo@"+hugoVersion)
	cmd.Env = append(os.Environ(), "GOBIN="+gobin)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd.Run()
}

// timed runs cmd and measures it and what it wrote to out.
func timed(cmd *exec.Cmd, out string) result {
	var stderr strings.Builder
	cmd.Stderr = &stderr
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		fail("%s: %v\n%s", strings.Join(cmd.Args, " "), err, stderr.String())
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	r := result{wall: wall, cpu: time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), maxRSS: ru.Maxrss << 10, pages: map[string]int{}}
	must(filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		// Hugo still writes a redirect at page/1/ of every paginated list
		// (disableAliases does not stop it): it is not a page.
		if rel, err := filepath.Rel(out, p); err == nil && strings.HasSuffix(p, ".html") && !strings.HasSuffix(filepath.ToSlash(rel), "/page/1/index.html") {
			if lang, _, ok := strings.Cut(filepath.ToSlash(rel), "/"); ok && slices.Contains(cases.Languages, lang) {
				r.pages[lang]++
			}
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		r.files++
		r.bytes += info.Size()
		return nil
	}))
	return r
}

func defaultTmp() string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		return "/dev/shm"
	}
	return os.TempDir()
}

func round(d time.Duration) string {
	if d > 10*time.Second {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Millisecond).String()
}

func must(err error) {
	if err != nil {
		fail("%v", err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "benchhugo: "+format+"\n", args...)
	os.Exit(1)
}
