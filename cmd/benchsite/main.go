// Command benchsite measures full builds of generated libraries, for
// `make bench`. For each size it generates a library once (kept under
// .cache/bench), builds the incidentlib binary, runs complete builds into a
// temporary folder several times and prints, per size, the median wall and
// CPU time, the peak memory, what was written, the wall time and user CPU
// time per case and the median time of each stage of the build.
//
// After each build it also writes the build's files again (same folders,
// names and sizes) with nothing else running: the write floor. It shows how
// much of a build the machine's file system decides, and whether that part
// alone grows faster than the number of cases.
//
// With -switches (on by default) it also builds each size with htmlexec
// switched off (INCIDENTLIB_HTMLEXEC=0: html/template renders every page)
// and with the cases' text on the heap (INCIDENTLIB_OFFHEAP=0), and prints
// what each saves: the medians of the plain builds against those.
//
//	go run ./cmd/benchsite [-sizes 1000,10000,100000] [-runs 3] [-tmp DIR] [-floor=false] [-switches=false]
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
)

type run struct {
	wall, cpu time.Duration
	user      time.Duration
	maxRSS    int64 // bytes
	summary   string
	stages    map[string]time.Duration
}

func main() {
	sizes := flag.String("sizes", "1000,10000,100000", "comma-separated library `sizes`")
	runs := flag.Int("runs", 3, "builds per size (100,000 cases: at most -runs-large)")
	large := flag.Int("runs-large", 1, "builds for sizes of 100,000 cases and more")
	tmp := flag.String("tmp", defaultTmp(), "`folder` for build output; the default, a tmpfs where there is one, takes the disk out of the figures")
	cache := flag.String("cache", ".cache/bench", "`folder` where generated libraries are kept between runs")
	floorOn := flag.Bool("floor", true, "after each build, time writing the same files with nothing else (the write floor)")
	switches := flag.Bool("switches", true, "also build with htmlexec and with the off-heap text switched off, and print what each saves")
	flag.Parse()

	bin := filepath.Join(*cache, "incidentlib")
	must(os.MkdirAll(*cache, 0o755))
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/incidentlib").CombinedOutput(); err != nil {
		fail("go build: %v\n%s", err, out)
	}
	fmt.Printf("incidentlib build benchmark: %d CPUs (GOMAXPROCS %d), %s, output under %s\n\n", runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.GOARCH, *tmp)
	// Progress goes to standard error as the builds run; the tables follow
	// on standard output once every size is done.
	rows := []string{fmt.Sprintf("%-8s %4s %10s %10s %9s %9s %9s %9s %12s %10s", "cases", "runs", "wall", "cpu", "peak mem", "pages", "files", "bytes", "wall/case", "user/case")}
	var stageLines, floorLines, switchLines []string
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			fail("bad size %q", f)
		}
		content := library(*cache, n)
		k := *runs
		if n >= 100000 {
			k = min(k, *large)
		}
		var rs []run
		var floors []floor
		for i := 0; i < k; i++ {
			out, err := os.MkdirTemp(*tmp, "benchsite-")
			must(err)
			rs = append(rs, build(bin, content, filepath.Join(out, "public"), nil))
			files := list(filepath.Join(out, "public"))
			os.RemoveAll(out) // not timed: the next build starts from nothing
			note := ""
			if *floorOn {
				floors = append(floors, rewrite(*tmp, files))
				note = ", write floor " + round(floors[len(floors)-1].wall)
			}
			fmt.Fprintf(os.Stderr, "%d cases: build %d of %d took %s%s\n", n, i+1, k, round(rs[len(rs)-1].wall), note)
		}
		sort.Slice(rs, func(i, j int) bool { return rs[i].wall < rs[j].wall })
		med := rs[len(rs)/2]
		var cpus, users []time.Duration
		var peak int64
		for _, r := range rs {
			cpus = append(cpus, r.cpu)
			users = append(users, r.user)
			peak = max(peak, r.maxRSS)
		}
		pages, files, mb := parseSummary(med.summary)
		rows = append(rows, fmt.Sprintf("%-8d %4d %10s %10s %8dM %9s %9s %9s %12s %10s", n, k, round(med.wall), round(median(cpus)),
			peak>>20, pages, files, mb, (med.wall/time.Duration(n)).Round(time.Microsecond),
			(median(users)/time.Duration(n)).Round(time.Microsecond)))
		if len(floors) > 0 {
			floorLines = append(floorLines, floorLine(n, mb, floors))
		}
		stageLines = append(stageLines, stageLine(n, rs))
		if *switches {
			switchLines = append(switchLines, saved(bin, content, *tmp, n, k, rs)...)
		}
	}
	fmt.Fprintln(os.Stderr)
	printTables(rows, stageLines, switchLines, floorLines)
}

// library returns the folder of the generated library of n cases under
// cache, generating it unless it is there already.
func library(cache string, n int) string {
	content := filepath.Join(cache, fmt.Sprintf("lib-%d-seed1", n))
	if _, err := os.Stat(filepath.Join(content, cases.SiteFile)); err != nil {
		os.RemoveAll(content)
		t0 := time.Now()
		must(gencases.WriteDir(content, gencases.Options{N: n, Seed: 1}))
		fmt.Fprintf(os.Stderr, "generated %d cases in %v\n", n, time.Since(t0).Round(time.Millisecond))
	}
	return content
}

// floorLine is the write floor's line for a size of n cases: the medians
// of its floors, which wrote the files of mb bytes.
func floorLine(n int, mb string, floors []floor) string {
	var walls, syss []time.Duration
	for _, f := range floors {
		walls = append(walls, f.wall)
		syss = append(syss, f.sys)
	}
	fl := floors[0] // the same files as the build's, so the same bytes (mb)
	return fmt.Sprintf("%-8d %9d files, %s: wall %s, kernel %s, %s per file, %s per case",
		n, fl.files, mb, round(median(walls)), round(median(syss)),
		(median(walls) / time.Duration(fl.files)).Round(10*time.Nanosecond),
		(median(walls) / time.Duration(n)).Round(time.Microsecond))
}

// stageLine is the median time of each stage over the builds rs of n cases.
func stageLine(n int, rs []run) string {
	var parts []string
	for _, name := range stageOrder(rs) {
		var ds []time.Duration
		for _, r := range rs {
			ds = append(ds, r.stages[name])
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		parts = append(parts, fmt.Sprintf("%s %s", name, round(ds[len(ds)/2])))
	}
	return fmt.Sprintf("%-8d %s", n, strings.Join(parts, ", "))
}

// printTables prints the tables on standard output once every size is done.
func printTables(rows, stageLines, switchLines, floorLines []string) {
	for _, r := range rows {
		fmt.Println(r)
	}
	fmt.Println("\nmedian time per stage. render and write are summed over the page workers, so on 2 cores they can")
	fmt.Println("add up to twice the pages stage. The search index and the API are made alongside the pages.")
	fmt.Println("Minifying is done once, on the templates, in theme+minify; no page is minified after rendering.")
	for _, l := range stageLines {
		fmt.Println(l)
	}
	if len(switchLines) > 0 {
		fmt.Println("\nwhat the switches save: the medians of the plain builds against builds with one switched off")
		fmt.Println("(wall and CPU time, peak memory; a negative figure is a cost). On a busy machine, compare with care.")
		for _, l := range switchLines {
			fmt.Println(l)
		}
	}
	if len(floorLines) > 0 {
		fmt.Println("\nwrite floor: after each build, the same files (same folders, names and sizes) are written again by")
		fmt.Println("two goroutines doing nothing else, no incidentlib code involved; medians. Every build does this")
		fmt.Println("work too; where it alone grows faster than the number of cases, the machine is the cause.")
		for _, l := range floorLines {
			fmt.Println(l)
		}
	}
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// defaultTmp is /dev/shm when it is a folder, else the temporary folder. On
// the machines this project is built on, the root file system is mounted
// with discard: creating and deleting the files of one 1,000-case site costs
// several seconds of kernel time there, which would drown what a build does.
func defaultTmp() string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		return "/dev/shm"
	}
	return os.TempDir()
}

var stageRe = regexp.MustCompile(`^  (\S.*?)\s{2,}(\S+)$`)

// saved builds the library k times with each switch off and says what the
// switched-off part saves against rs, the plain builds.
func saved(bin, content, tmp string, n, k int, rs []run) []string {
	var out []string
	for _, sw := range []struct{ name, env string }{
		{"htmlexec", "INCIDENTLIB_HTMLEXEC=0"},
		{"off-heap text", "INCIDENTLIB_OFFHEAP=0"},
	} {
		var off []run
		for i := 0; i < k; i++ {
			dir, err := os.MkdirTemp(tmp, "benchsite-")
			must(err)
			off = append(off, build(bin, content, filepath.Join(dir, "public"), []string{sw.env}))
			os.RemoveAll(dir)
		}
		wall := func(r run) time.Duration { return r.wall }
		cpu := func(r run) time.Duration { return r.cpu }
		mem := func(r run) time.Duration { return time.Duration(r.maxRSS) }
		pick := func(rs []run, f func(run) time.Duration) time.Duration {
			var ds []time.Duration
			for _, r := range rs {
				ds = append(ds, f(r))
			}
			return median(ds)
		}
		out = append(out, fmt.Sprintf("%-8d %-14s saves wall %s, cpu %s, peak mem %dM (%s)", n, sw.name,
			round(pick(off, wall)-pick(rs, wall)), round(pick(off, cpu)-pick(rs, cpu)),
			int64(pick(off, mem)-pick(rs, mem))>>20, sw.env))
	}
	return out
}

// build runs one build of content into out, with env added to the
// environment.
func build(bin, content, out string, env []string) run {
	cmd := exec.Command(bin, "build", "-v", "-content", content, "-out", out)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		fail("build %s: %v\n%s", content, err, stderr.String())
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	r := run{
		wall:   wall,
		cpu:    time.Duration(ru.Utime.Nano() + ru.Stime.Nano()),
		user:   time.Duration(ru.Utime.Nano()),
		maxRSS: ru.Maxrss << 10,
		stages: map[string]time.Duration{},
	}
	sc := bufio.NewScanner(&stdout)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "built ") {
			r.summary = line
		}
		if m := stageRe.FindStringSubmatch(line); m != nil {
			if d, err := time.ParseDuration(m[2]); err == nil {
				r.stages[strings.TrimSuffix(m[1], " (alongside)")] = d
			}
		}
	}
	return r
}

func stageOrder(rs []run) []string {
	order := []string{"load+check", "theme+minify", "derive", "pages", "render (workers)", "write (workers)", "search index", "api", "checklist", "swap"}
	var out []string
	for _, s := range order {
		if _, ok := rs[0].stages[s]; ok {
			out = append(out, s)
		}
	}
	return out
}

var summaryRe = regexp.MustCompile(`(\d+) pages, (\d+) files, ([\d.]+ [kMG]?B)`)

func parseSummary(s string) (pages, files, size string) {
	m := summaryRe.FindStringSubmatch(s)
	if m == nil {
		return "?", "?", "?"
	}
	return m[1], m[2], m[3]
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
	fmt.Fprintf(os.Stderr, "benchsite: "+format+"\n", args...)
	os.Exit(1)
}
