// Command benchserve measures what a person editing with the preview waits
// for, for `make bench-serve`: from saving a one-case edit to the reload
// event the open page receives, through the real watcher, its debounce and
// the rebuild, in a real incidentlib serve process. For each library (the
// repository's content/, and generated libraries of the sizes asked for)
// it copies the library into a temporary folder, starts the server, opens
// the event stream as a page does, then saves -edits edits of one case's
// title, one at a time, each timed from just before the file is written to
// the event that follows, and prints their median, the fastest and the
// slowest, and the machine's load beside them. After each event it waits
// for the server to finish the edit in the background (the related cases
// it computes late, internal/serve/late.go), as a person looks at the page
// before saving again.
//
//	go run ./cmd/benchserve [-sizes content,10000] [-edits 20] [-tmp DIR] [-wait-late=false -pause 2s]
//
// With -wait-late=false the edits come every -pause whether or not the
// server finished the late work of the one before, as a person saving
// often does: it measures an edit's time while related cases are computed.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"

	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/webtest"
)

var (
	binFlag  *string
	waitLate *bool
	pause    *time.Duration
)

func main() {
	sizes := flag.String("sizes", "content,10000", "comma-separated `libraries`: content (the repository's) or a number of generated cases")
	edits := flag.Int("edits", 20, "edits per library")
	cache := flag.String("cache", ".cache/bench", "`folder` where generated libraries are kept between runs (shared with make bench)")
	tmp := flag.String("tmp", defaultTmp(), "`folder` for the copies the edits change")
	waitLate = flag.Bool("wait-late", true, "after each edit, wait for the work the server does late (related cases) before the next; false saves every -pause while it runs")
	pause = flag.Duration("pause", 300*time.Millisecond, "the quiet time before each save")
	binFlag = flag.String("bin", "", "the incidentlib `binary` to run, such as an older build to compare; empty builds this checkout's")
	flag.Parse()
	if *edits < 1 {
		fail("-edits must be at least 1")
	}
	must(os.MkdirAll(*cache, 0o755))
	bin := *binFlag
	if bin == "" {
		bin = filepath.Join(*cache, "incidentlib")
		if out, err := exec.Command("go", "build", "-o", bin, "./cmd/incidentlib").CombinedOutput(); err != nil {
			fail("go build: %v\n%s", err, out)
		}
	}
	rows := []string{fmt.Sprintf("%-10s %6s %10s %10s %10s   %s", "library", "edits", "median", "fastest", "slowest", "load average (before, after)")}
	for _, f := range strings.Split(*sizes, ",") {
		f = strings.TrimSpace(f)
		src, id := "content", ""
		if f != "content" {
			n, err := strconv.Atoi(f)
			if err != nil || n <= 0 {
				fail("bad size %q", f)
			}
			src = filepath.Join(*cache, fmt.Sprintf("lib-%d-seed1", n))
			if _, err := os.Stat(filepath.Join(src, cases.SiteFile)); err != nil {
				os.RemoveAll(src)
				must(gencases.WriteDir(src, gencases.Options{N: n, Seed: 1}))
			}
			id = gencases.CaseID(n/2, n)
		}
		dir, err := os.MkdirTemp(*tmp, "benchserve-")
		must(err)
		content := filepath.Join(dir, "content")
		must(os.CopyFS(content, os.DirFS(src)))
		if id == "" {
			id = firstCase(content)
		}
		before := load()
		took := run(bin, content, filepath.Join(content, "cases", id+".json"), *edits)
		after := load()
		os.RemoveAll(dir)
		s := slices.Clone(took)
		slices.Sort(s)
		rows = append(rows, fmt.Sprintf("%-10s %6d %10s %10s %10s   %s; %s", f, len(s), ms(s[(len(s)-1)/2]), ms(s[0]), ms(s[len(s)-1]), before, after))
	}
	fmt.Println()
	for _, r := range rows {
		fmt.Println(r)
	}
	fmt.Println("\nfrom writing a one-case edit to the reload event on the page's stream (" + "/_incidentlib/events" + "), through the watcher's")
	fmt.Println("debounce (50 ms) and the rebuild; the server runs as incidentlib serve does, on this machine's CPUs.")
}

// run starts the server on content, then saves edits edits of file and
// returns how long each took to reach the event stream.
func run(bin, content, file string, edits int) []time.Duration {
	orig, err := os.ReadFile(file)
	must(err)
	at := titleAt(orig, file)
	base, log, stop := startServe(bin, content)
	defer stop()
	resp, err := http.Get(base + "/_incidentlib/events")
	must(err)
	defer resp.Body.Close()
	events := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				events <- v
			}
		}
		close(events)
	}()
	last := <-events
	var took []time.Duration
	for i := range edits {
		edited := slices.Concat(orig[:at], []byte("Edit "+strconv.Itoa(i+1)+" of the preview benchmark: "), orig[at:])
		time.Sleep(*pause) // the previous save's burst is over
	drain:
		for {
			select {
			case v := <-events:
				last = v
			default:
				break drain
			}
		}
		t0 := time.Now()
		must(os.WriteFile(file, edited, 0o644))
		// The page reloads on the first event of another version.
		for v := last; v == last; {
			select {
			case x, ok := <-events:
				if !ok {
					fail("the event stream ended:\n%s", log.String())
				}
				v = x
			case <-time.After(2 * time.Minute):
				fail("edit %d: no event after 2 minutes:\n%s", i+1, log.String())
			}
			if v != last {
				last = v
				break
			}
		}
		took = append(took, time.Since(t0))
		fmt.Fprintf(os.Stderr, "%s: edit %d: %s\n", filepath.Base(filepath.Dir(filepath.Dir(file))), i+1, ms(took[len(took)-1]))
		// A server that computes nothing late (an older build, -bin)
		// never says so: after the first edit it is not waited for. The
		// first wait is long, as computing the related cases of 10,000
		// cases takes tens of seconds on a busy machine, and an edit
		// measured while they are computed measures the machine's load.
		wait := 3 * time.Minute
		if !*waitLate || (i > 0 && !strings.Contains(log.String(), "related cases computed")) {
			wait = 0
		}
		for t := time.Now(); strings.Count(log.String(), "related cases computed") < i+1 && time.Since(t) < wait; {
			time.Sleep(50 * time.Millisecond)
		}
	}
	must(os.WriteFile(file, orig, 0o644))
	// What the server said it spent on the last edits, for the reader.
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	for _, l := range lines[max(0, len(lines)-4):] {
		fmt.Fprintln(os.Stderr, "  server: "+l)
	}
	return took
}

// titleAt returns where the English title's text starts in orig, the
// case file file, in compact or indented JSON.
func titleAt(orig []byte, file string) int {
	at := bytes.Index(orig, []byte(`"title"`))
	en := -1
	if at >= 0 {
		en = bytes.Index(orig[at:], []byte(`"en"`))
	}
	if en < 0 {
		fail("%s has no English title", file)
	}
	at += en + len(`"en"`)
	return at + bytes.IndexByte(orig[at:], '"') + 1
}

// startServe starts bin serve on content at a free loopback port and
// waits until it answers; it returns the server's address, its log, and
// a stop that interrupts it (and kills it after 10 s).
func startServe(bin, content string) (base string, log *syncBuf, stop func()) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(err)
	addr := ln.Addr().String()
	ln.Close()
	log = &syncBuf{}
	cmd := exec.Command(bin, "serve", "-content", content, "-addr", addr)
	cmd.Stdout, cmd.Stderr = log, log
	must(cmd.Start())
	stop = func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}
	base = "http://" + addr
	if err := webtest.WaitFor(base+"/en/", 10*time.Minute, nil); err != nil {
		stop()
		fail("the server did not answer: %v\n%s", err, log.String())
	}
	return base, log, stop
}

// syncBuf is the server's log, written by the process's copying goroutine
// and read by the edits.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// firstCase returns the id of the first case file in content.
func firstCase(content string) string {
	entries, err := os.ReadDir(filepath.Join(content, "cases"))
	must(err)
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ".json"); ok {
			return id
		}
	}
	fail("no case in %s", content)
	return ""
}

// load is the load average, for the table: the figures mean little on a
// busy machine.
func load() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func ms(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) + " ms" }

func defaultTmp() string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		return "/dev/shm"
	}
	return os.TempDir()
}

func must(err error) {
	if err != nil {
		fail("%v", err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "benchserve: "+format+"\n", args...)
	os.Exit(1)
}
