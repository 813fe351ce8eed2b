// Command benchmcp is the load test of "incidentlib mcp": it generates a
// library (10,000 cases by default, kept under .cache/bench as make bench
// keeps its libraries), builds the command, starts it with -http on
// 127.0.0.1, and lets many clients call tools at the same time over
// Streamable HTTP, each with its own session, as many AI tools sharing one
// server would. It prints the latency of the calls (p50, p90, p99, max),
// the calls per second, every error, and the server process's memory
// (resident now and at its peak, from /proc) after loading and after the
// load. It exits with status 1 if any call failed.
//
//	go run ./cmd/benchmcp [-cases 10000] [-clients 200] [-calls 100] [-stateless] [-max-memory 1GiB]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
)

func main() {
	n := flag.Int("cases", 10000, "`number` of cases in the generated library")
	clients := flag.Int("clients", 200, "clients calling at the same time, each with its own session")
	calls := flag.Int("calls", 100, "tool calls per client")
	cache := flag.String("cache", ".cache/bench", "`folder` where the library and the command are kept")
	stateless := flag.Bool("stateless", false, "run the server with -stateless, as replicas behind a load balancer run")
	maxMemory := flag.String("max-memory", "", "run the server with -max-memory `SIZE`, such as 1GiB")
	flag.Parse()

	content, bin := prepare(*cache, *n)
	t0 := time.Now()
	endpoint := startServer(bin, content, *stateless, *maxMemory)
	defer stopServer()
	pid := server.Process.Pid
	ready, readyCPU := time.Since(t0), cpuTime(pid)
	loadedRSS, loadedPeak := memory(pid)

	ctx := context.Background()
	sessions := make([]*mcp.ClientSession, *clients)
	for i := range sessions {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "benchmcp", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
		if err != nil {
			fail("client %d: %v", i, err)
		}
		defer cs.Close()
		sessions[i] = cs
	}
	load0 := loadAvg()
	t1 := time.Now()
	cpu0, self0 := cpuTime(pid), cpuTime(os.Getpid())
	l := runLoad(ctx, sessions, *calls, *n, vocabTerms(content), pid)
	took := time.Since(t1)
	cpu, self := cpuTime(pid)-cpu0, cpuTime(os.Getpid())-self0
	rss, peak := memory(pid)

	mode := "a session each"
	if *stateless {
		mode = "stateless"
	}
	fmt.Printf("incidentlib mcp load test: %d cases, %d clients at once (%s), %d calls each over Streamable HTTP\n", *n, *clients, mode, *calls)
	fmt.Printf("server ready in %v (%v of CPU); resident %s (peak %s) after loading\n", ready.Round(time.Millisecond), readyCPU.Round(time.Millisecond), mb(loadedRSS), mb(loadedPeak))
	fmt.Printf("%d calls in %v: %.0f calls/s, %d errors\n", len(l.lat), took.Round(time.Millisecond), float64(len(l.lat))/took.Seconds(), len(l.errs))
	fmt.Printf("CPU: the server %v (%v a call), the clients %v, on %d CPUs; load average before and after: %s, %s\n",
		cpu.Round(time.Millisecond), (cpu / time.Duration(max(1, len(l.lat)))).Round(time.Millisecond/10), self.Round(time.Millisecond), runtime.NumCPU(), load0, loadAvg())
	l.printLatencies()
	fmt.Printf("server memory after the load: resident %s, peak %s\n", mb(rss), mb(peak))
	fmt.Printf("server memory during the load: %s\n", strings.Join(l.mem, ", "))
	for i, e := range l.errs {
		if i == 10 {
			fmt.Printf("… and %d more errors\n", len(l.errs)-10)
			break
		}
		fmt.Println("error:", e)
	}
	if len(l.errs) > 0 {
		stopServer()
		os.Exit(1)
	}
}

// prepare generates the library of n cases under cache, unless it is there
// already, and builds the command; it returns the content folder and the
// command's path.
func prepare(cache string, n int) (content, bin string) {
	must(os.MkdirAll(cache, 0o755))
	content = filepath.Join(cache, fmt.Sprintf("lib-%d-seed1", n))
	if _, err := os.Stat(filepath.Join(content, cases.SiteFile)); err != nil {
		os.RemoveAll(content)
		t0 := time.Now()
		must(gencases.WriteDir(content, gencases.Options{N: n, Seed: 1}))
		fmt.Fprintf(os.Stderr, "generated %d cases in %v\n", n, time.Since(t0).Round(time.Millisecond))
	}
	bin = filepath.Join(cache, "incidentlib")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/incidentlib").CombinedOutput(); err != nil {
		fail("go build: %v\n%s", err, out)
	}
	return content, bin
}

// startServer starts the command as the MCP server over HTTP on 127.0.0.1
// (kept in server) and returns the endpoint it names.
func startServer(bin, content string, stateless bool, maxMemory string) string {
	args := []string{"mcp", "-content", content, "-http", "127.0.0.1:0"}
	if stateless {
		args = append(args, "-stateless")
	}
	if maxMemory != "" {
		args = append(args, "-max-memory", maxMemory)
	}
	cmd := exec.Command(bin, args...)
	stderr, err := cmd.StderrPipe()
	must(err)
	must(cmd.Start())
	server = cmd
	endpoint := ""
	lines := bufio.NewScanner(stderr)
	addr := regexp.MustCompile(`http://127\.0\.0\.1:\d+/mcp`)
	for endpoint == "" && lines.Scan() {
		endpoint = addr.FindString(lines.Text())
	}
	if endpoint == "" {
		fail("the server named no address")
	}
	go io.Copy(io.Discard, stderr)
	return endpoint
}

// load is what the clients' calls measured.
type load struct {
	mu     sync.Mutex
	lat    []time.Duration
	byTool map[string][]time.Duration
	errs   []string
	done   int
	mem    []string // the server's resident memory after each quarter of the calls
}

// runLoad lets every session make calls tool calls at once, chosen by
// pick, and measures them; pid is the server's, whose memory it notes
// after each quarter of the calls.
func runLoad(ctx context.Context, sessions []*mcp.ClientSession, calls, n int, terms map[string][]string, pid int) *load {
	l := &load{byTool: map[string][]time.Duration{}}
	total := len(sessions) * calls
	var wg sync.WaitGroup
	started := make(chan struct{})
	for i, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(i), 1))
			<-started
			for k := 0; k < calls; k++ {
				name, args := pick(r, n, terms)
				t := time.Now()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
				d := time.Since(t)
				l.mu.Lock()
				l.lat = append(l.lat, d)
				l.byTool[name] = append(l.byTool[name], d)
				switch {
				case err != nil:
					l.errs = append(l.errs, fmt.Sprintf("%s %v: %v", name, args, err))
				case res.IsError:
					l.errs = append(l.errs, fmt.Sprintf("%s %v: %v", name, args, res.Content[0].(*mcp.TextContent).Text))
				}
				if l.done++; l.done%(max(1, total/4)) == 0 {
					rss, _ := memory(pid)
					l.mem = append(l.mem, fmt.Sprintf("%s after %d calls", mb(rss), l.done))
				}
				l.mu.Unlock()
			}
		}()
	}
	close(started)
	wg.Wait()
	return l
}

// printLatencies prints the latency table: every call, then each tool's.
func (l *load) printLatencies() {
	fmt.Printf("%-18s %6s %9s %9s %9s %9s\n", "tool", "calls", "p50", "p90", "p99", "max")
	row := func(name string, ds []time.Duration) {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		fmt.Printf("%-18s %6d %9v %9v %9v %9v\n", name, len(ds), q(ds, 0.50), q(ds, 0.90), q(ds, 0.99), ds[len(ds)-1].Round(time.Millisecond/10))
	}
	row("all", l.lat)
	names := make([]string, 0, len(l.byTool))
	for name := range l.byTool {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		row(name, l.byTool[name])
	}
}

// server is the command under test, ended by its id on the way out.
var server *exec.Cmd

func stopServer() {
	if server != nil {
		server.Process.Kill()
		server.Wait()
		server = nil
	}
}

var queries = []string{"ingress 404", "로드 밸런서가", "캐시를", "dns timeout", "certificate expired", "etcd", "노드 커널", "kubernetes upgrade", "database failover", "config push"}

// pick chooses a tool call as a model would make them: mostly searches
// and cases, some lists, topics and vocabularies.
func pick(r *rand.Rand, n int, terms map[string][]string) (string, map[string]any) {
	lang := []string{"en", "ko"}[r.IntN(2)]
	switch x := r.IntN(10); {
	case x < 4:
		args := map[string]any{"query": queries[r.IntN(len(queries))], "lang": lang}
		if x == 0 {
			args["components"] = []string{terms["components"][r.IntN(len(terms["components"]))]}
		}
		return "search_incidents", args
	case x < 7:
		return "get_incident", map[string]any{"id": gencases.CaseID(r.IntN(n), n), "lang": lang}
	case x < 8:
		return "list_incidents", map[string]any{"root_causes": []string{terms["root_cause"][r.IntN(len(terms["root_cause"]))]}, "lang": lang}
	case x < 9:
		return "get_topic", map[string]any{"facet": "components", "term": terms["components"][r.IntN(len(terms["components"]))], "lang": lang}
	}
	return "vocab", map[string]any{"facet": "symptoms"}
}

// vocabTerms reads the term ids of the generated vocab.json.
func vocabTerms(content string) map[string][]string {
	data, err := os.ReadFile(filepath.Join(content, cases.VocabFile))
	must(err)
	var v map[string][]struct{ ID string }
	must(json.Unmarshal(data, &v))
	out := map[string][]string{}
	for field, ts := range v {
		for _, t := range ts {
			out[field] = append(out[field], t.ID)
		}
	}
	return out
}

// cpuTime reads the user and system CPU time a process has used so far.
func cpuTime(pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name, in parentheses, may hold spaces; the fields after
	// it are numbers, utime and stime the 12th and 13th of them.
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	var ut, st int64
	fmt.Sscan(f[11], &ut)
	fmt.Sscan(f[12], &st)
	return time.Duration(ut+st) * time.Second / 100 // clock ticks of USER_HZ = 100
}

// loadAvg is the machine's load average over the last minute: latency
// figures mean little when other work holds the CPUs.
func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Fields(string(data))[0]
}

// memory reads a process's resident and peak resident memory.
func memory(pid int) (rss, peak int64) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		var kb int64
		if _, err := fmt.Sscanf(line, "VmRSS: %d kB", &kb); err == nil {
			rss = kb << 10
		}
		if _, err := fmt.Sscanf(line, "VmHWM: %d kB", &kb); err == nil {
			peak = kb << 10
		}
	}
	return rss, peak
}

func q(sorted []time.Duration, p float64) time.Duration {
	return sorted[min(len(sorted)-1, int(p*float64(len(sorted))))].Round(time.Millisecond / 10)
}

func mb(b int64) string {
	if b == 0 {
		return "unknown"
	}
	return fmt.Sprintf("%d MB", b>>20)
}

func must(err error) {
	if err != nil {
		fail("%v", err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "benchmcp: "+format+"\n", args...)
	stopServer()
	os.Exit(1)
}
