//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"incidentlib/internal/build"
	"incidentlib/internal/repotest"
)

// setSiteField replaces the value of a string member of content/site.json
// in the folder dir.
func setSiteField(t *testing.T, dir, key, value string) {
	t.Helper()
	file := filepath.Join(dir, "site.json")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	old := `"` + key + `": "`
	i := bytes.Index(b, []byte(old))
	if i < 0 {
		t.Fatalf("site.json has no %s: update the test", key)
	}
	j := i + len(old) + bytes.IndexByte(b[i+len(old):], '"')
	q, _ := json.Marshal(value)
	out := append(append(append([]byte{}, b[:i+len(old)-1]...), q...), b[j+1:]...)
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHostileURLSettings (#39 rows 1 and 14): a base URL with a quote or
// an angle bracket, with no host, or long enough to multiply the output,
// is refused by check and by build, in site.json and as -base-url, and the
// message names the setting.
func TestHostileURLSettings(t *testing.T) {
	bad := []string{
		`https://e.org/"><script>alert(1)</script>/`,
		`https://e.org/a'b/`,
		`https://e.org/<b>/`,
		`https:///x/`,
		`https://e.org/` + strings.Repeat("a", 300) + `/`,
		"https://e.org/\x1b[31m/",
	}
	for _, u := range bad {
		dir := repotest.ContentDir(t)
		setSiteField(t, dir, "base_url", u)
		out := filepath.Join(t.TempDir(), "public")
		for _, args := range [][]string{{"check", "-content", dir}, {"build", "-content", dir, "-out", out}} {
			code, got := runLimited(t, args...)
			if code != 1 || !strings.Contains(got, "base_url") {
				t.Errorf("%s with base_url %.40q: exit %d, want 1 and a message naming base_url:\n%.500s", args[0], u, code, got)
			}
		}
		code, got := runLimited(t, "build", "-content", repotest.Dir(t, "content"), "-out", out, "-base-url", u)
		if code == 0 || !strings.Contains(got, "base URL") {
			t.Errorf("build -base-url %.40q: exit %d:\n%.500s", u, code, got)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("base_url %.40q: build wrote its output", u)
		}
	}
	for _, key := range []string{"url", "edit_url"} {
		dir := repotest.ContentDir(t)
		setSiteField(t, dir, key, `https://e.org/"><script>alert(1)</script>/`)
		if code, got := runLimited(t, "check", "-content", dir); code != 1 || !strings.Contains(got, "repository."+key) {
			t.Errorf("repository.%s with a quote: exit %d:\n%.500s", key, code, got)
		}
	}
}

// TestHugeMarkerCount (#39 row 6): an output whose marker claims more
// files than memory can hold is refused with a message, not a panic.
func TestHugeMarkerCount(t *testing.T) {
	out := t.TempDir()
	for _, count := range []string{"9223372036854775807", "4611686018427387903", "1000000000000"} {
		marker := "x\nincidentlib-output 1 files " + count + "\nH4sIAAAAAAAC/wMAAAAAAAAAAAA=\n"
		if err := os.WriteFile(filepath.Join(out, build.Marker), []byte(marker), 0o644); err != nil {
			t.Fatal(err)
		}
		code, got := runLimited(t, "build", "-content", repotest.Dir(t, "content"), "-out", out)
		if code != 1 || !strings.Contains(got, build.Marker) {
			t.Errorf("count %s: exit %d:\n%.400s", count, code, got)
		}
	}
}

// TestTempNamesInOutput (#39 row 7): files of one's own in the output
// named like a build's temporary folder are strangers like any other: the
// build refuses the output, names them, and they stay.
func TestTempNamesInOutput(t *testing.T) {
	content := repotest.ContentFolder(t)
	out := filepath.Join(t.TempDir(), "public")
	if code, got := runLimited(t, "build", "-content", content, "-out", out); code != 0 {
		t.Fatalf("first build: %d\n%s", code, got)
	}
	mine := []string{".public.build-notes.txt", ".public.build-123-x/keep.txt", ".public.build-marker"}
	for _, f := range mine {
		p := filepath.Join(out, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, got := runLimited(t, "build", "-content", content, "-out", out)
	if code != 1 || !strings.Contains(got, ".public.build-notes.txt") {
		t.Errorf("a build over files named like its temporaries: exit %d, want 1 naming them:\n%s", code, got)
	}
	for _, f := range mine {
		if b, err := os.ReadFile(filepath.Join(out, f)); string(b) != "mine" {
			t.Errorf("%s is lost: %v", f, err)
		}
	}
}

// TestKilledCleanupKeepsMarker (#39 row 10): a leftover of a killed build
// whose removal stops half way keeps its marker, so that a later build
// still knows it for a build's and removes it.
func TestKilledCleanupKeepsMarker(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "public")
	stale := filepath.Join(parent, ".public.build-4242-x")
	os.MkdirAll(filepath.Join(stale, "en", "cases"), 0o755)
	os.WriteFile(filepath.Join(stale, build.Marker), []byte("x"), 0o644)
	for i := range 50 {
		os.WriteFile(filepath.Join(stale, "en", "cases", fmt.Sprint(i)), []byte("x"), 0o644)
	}
	stuck := filepath.Join(stale, "en", "stuck")
	os.WriteFile(stuck, []byte("x"), 0o644)
	// An immutable file stands for the moment a kill stops the removal.
	if err := exec.Command("chattr", "+i", stuck).Run(); err != nil {
		t.Skip("chattr +i is not available here:", err)
	}
	defer exec.Command("chattr", "-i", stuck).Run()
	content := repotest.ContentFolder(t)
	if code, got := runLimited(t, "build", "-content", content, "-out", out); code != 0 {
		t.Fatalf("build: %d\n%s", code, got)
	}
	if _, err := os.Stat(filepath.Join(stale, build.Marker)); err != nil {
		t.Errorf("a leftover whose removal stopped lost its marker: %v", err)
	}
	exec.Command("chattr", "-i", stuck).Run()
	if code, got := runLimited(t, "build", "-content", content, "-out", out); code != 0 {
		t.Fatalf("build: %d\n%s", code, got)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("a later build left the leftover: %v", err)
	}
}

// stdioMCP runs "incidentlib mcp" over the shipped content with the lines
// as its standard input, and returns its exit status and standard output.
// The input ends once the output holds last (or after a minute), as a
// client waits for its answers before it closes the pipe.
func stdioMCP(t *testing.T, last string, lines ...string) (int, string) {
	t.Helper()
	var stdout syncBuffer
	var stderr bytes.Buffer
	in := &waitingReader{r: strings.NewReader(strings.Join(lines, "\n") + "\n"), until: func() bool { return strings.Contains(stdout.String(), last) }}
	done := make(chan int, 1)
	go func() {
		done <- cmdMCP([]string{"-content", repotest.Dir(t, "content")}, io.NopCloser(in), &stdout, &stderr)
	}()
	select {
	case code := <-done:
		return code, stdout.String()
	case <-time.After(10 * time.Minute):
		t.Fatal("mcp did not end at the end of its input")
		return 0, ""
	}
}

// waitingReader reads r, then waits until until holds (ten minutes at most)
// before it says the input ended.
type waitingReader struct {
	r     io.Reader
	until func() bool
}

func (w *waitingReader) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	if err == io.EOF {
		for deadline := time.Now().Add(10 * time.Minute); !w.until() && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
	}
	return n, err
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

const mcpInit = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`

// TestStdioMCPSurvives (#39 rows 5 and 19): well-formed messages the
// protocol server cannot take (params nested 1,000 deep, a response whose
// error is a string) are answered with a JSON-RPC error or ignored, and
// the server answers the next call; an id above 2^53 comes back exactly.
func TestStdioMCPSurvives(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 1000) + "1" + strings.Repeat("}", 1000)
	code, out := stdioMCP(t, `"id":"last"`, mcpInit,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":`+deep+`}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"vocab","arguments":{"x":`+deep+`}}}`,
		`{"jsonrpc":"2.0","id":7,"error":"x"}`,
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"last","method":"ping"}`,
	)
	if code != 0 {
		t.Errorf("exit %d", code)
	}
	for _, want := range []string{`"id":1,`, `"id":2,`, `"id":9007199254740993,`, `"id":"last"`} {
		if !strings.Contains(out, want) {
			t.Errorf("no answer with %s:\n%.2000s", want, out)
		}
	}
}

// setCaseField sets a top-level field of a case file to the JSON value.
func setCaseField(t *testing.T, dir, id, key, value string) {
	t.Helper()
	file := filepath.Join(dir, "cases", id+".json")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m[key] = json.RawMessage(value)
	out, _ := json.MarshalIndent(m, "", "  ")
	os.WriteFile(file, out, 0o644)
}

// TestRecurrenceCycle (#39 row 19): cases that are recurrences of each
// other, in a ring, fail check with the ring named in each file.
func TestRecurrenceCycle(t *testing.T) {
	dir := repotest.CopyDir(t, "content")
	setCaseField(t, dir, "IL-0011", "recurrence_of", `"IL-0053"`)
	setCaseField(t, dir, "IL-0053", "recurrence_of", `"IL-0054"`)
	setCaseField(t, dir, "IL-0054", "recurrence_of", `"IL-0011"`)
	code, got := runLimited(t, "check", "-content", dir)
	if code != 1 {
		t.Errorf("check: exit %d, want 1:\n%s", code, got)
	}
	for _, id := range []string{"IL-0011", "IL-0053", "IL-0054"} {
		if !strings.Contains(got, "cases/"+id+".json:") || !strings.Contains(got, "IL-0011 → IL-0053 → IL-0054 → IL-0011") {
			t.Errorf("the report does not name the ring at %s:\n%s", id, got)
		}
	}
}

// TestTerminalEscapes (#39 row 18): escape sequences in content (in a
// file's text, which an excerpt shows, and in a file's name) reach the
// terminal escaped, as check and build print them.
func TestTerminalEscapes(t *testing.T) {
	dir := repotest.ContentDir(t)
	os.WriteFile(filepath.Join(dir, "cases", "IL-9100.json"), []byte("{\"id\": \"IL-9100\", \"title\": \"\x1b]0;owned\x07\x1b[2J\",\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "pages", "x\x1b[31m.en.md"), []byte("# x\n"), 0o644)
	out := filepath.Join(t.TempDir(), "public")
	for _, args := range [][]string{{"check", "-content", dir}, {"build", "-content", dir, "-out", out}} {
		code, got := runLimited(t, args...)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1", args[0], code)
		}
		if strings.ContainsAny(got, "\x1b\x07") {
			t.Errorf("%s prints control characters from the content:\n%q", args[0], got)
		}
		if !strings.Contains(got, `x\x1b[31m.en.md`) {
			t.Errorf("%s does not name the page file, escaped:\n%s", args[0], got)
		}
	}
}

// TestHardLinkedContent (#39 row 12): a file of the content with another
// name elsewhere (a hard link to a file outside the folder) is refused
// with its path, by check and build, and nothing of it is printed.
func TestHardLinkedContent(t *testing.T) {
	dir := repotest.ContentDir(t)
	outside := filepath.Join(t.TempDir(), "secret.json")
	os.WriteFile(outside, []byte("{\"id\": \"IL-9004\", \"s3cr3t\": x\n"), 0o600)
	if err := os.Link(outside, filepath.Join(dir, "cases", "IL-9004.json")); err != nil {
		t.Skip("no hard links here:", err)
	}
	out := filepath.Join(t.TempDir(), "public")
	for _, args := range [][]string{{"check", "-content", dir}, {"build", "-content", dir, "-out", out}} {
		code, got := runLimited(t, args...)
		if code != 1 || !strings.Contains(got, "cases/IL-9004.json: cannot read: a file with 2 hard links") {
			t.Errorf("%s: exit %d, want 1 and the file refused:\n%s", args[0], code, got)
		}
		if strings.Contains(got, "s3cr3t") {
			t.Errorf("%s prints the hard-linked file:\n%s", args[0], got)
		}
	}
}

// TestHostileTheme (#39 row 11): the templates and static folders are read
// through the content's jail: a link out of them, a link to /dev/zero and
// a named pipe are refused with their names, by build and by check, which
// never hang on them and publish nothing from outside.
func TestHostileTheme(t *testing.T) {
	top := t.TempDir()
	tpl, static := filepath.Join(top, "templates"), filepath.Join(top, "static")
	repotest.CopyTree(t, repotest.Dir(t, "templates"), tpl)
	repotest.CopyTree(t, repotest.Dir(t, "static"), static)
	secret := filepath.Join(top, "environ")
	os.WriteFile(secret, []byte("CI_TOKEN=s3cr3t"), 0o600)
	os.Symlink(secret, filepath.Join(static, "css", "leak.css"))
	os.Symlink("/dev/zero", filepath.Join(static, "js", "zero.js"))
	if err := syscall.Mkfifo(filepath.Join(static, "img", "pipe.svg"), 0o644); err != nil {
		t.Fatal(err)
	}
	content := repotest.Dir(t, "content")
	out := filepath.Join(t.TempDir(), "public")
	for _, args := range [][]string{
		{"build", "-content", content, "-templates", tpl, "-static", static, "-out", out},
		{"check", "-content", content, "-templates", tpl, "-static", static},
	} {
		code, got := runLimited(t, args...)
		if code != 1 || !strings.Contains(got, "leak.css") {
			t.Errorf("%s: exit %d, want 1 naming the link out of the folder:\n%s", args[0], code, got)
		}
		if strings.Contains(got, "s3cr3t") {
			t.Errorf("%s prints a file from outside:\n%s", args[0], got)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("build wrote its output")
	}
	// Without the links, the pipe is named too.
	os.Remove(filepath.Join(static, "css", "leak.css"))
	os.Remove(filepath.Join(static, "js", "zero.js"))
	if code, got := runLimited(t, "check", "-content", content, "-templates", tpl, "-static", static); code != 1 || !strings.Contains(got, "pipe.svg") || !strings.Contains(got, "named pipe") {
		t.Errorf("check with a pipe in static: exit %d:\n%s", code, got)
	}
}

// TestProblemsBeyondCap (#39 row 13): 20,000 broken files are counted whole,
// and the report shows the first problems and how many more, in memory
// that does not grow with them.
func TestProblemsBeyondCap(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 20,000 files")
	}
	dir := repotest.ContentDir(t)
	for i := range 20000 {
		os.WriteFile(filepath.Join(dir, "cases", fmt.Sprintf("IL-%06d.json", 100000+i)), []byte("{"), 0o644)
	}
	code, got := runLimited(t, "check", "-content", dir)
	if code != 1 || !strings.Contains(got, "incidentlib check: 20000 errors") || !strings.Contains(got, "more problems, not shown: only the first 1000 are kept") {
		t.Errorf("check: exit %d:\n%.300s\n…\n%s", code, got, got[max(0, len(got)-600):])
	}
	if n := strings.Count(got, "\n"); n > 3*1000+5 {
		t.Errorf("check printed %d lines", n)
	}
}

// TestFilesDuringBuild (#39 row 8): files put into the output while a
// build runs are noticed before the swap: the build stops, names them, and
// they stay, with the earlier output.
func TestFilesDuringBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds in a child process")
	}
	content := repotest.Dir(t, "content")
	out := filepath.Join(t.TempDir(), "public")
	if code, got := runLimited(t, "build", "-content", content, "-out", out); code != 0 {
		t.Fatalf("first build: %d\n%s", code, got)
	}
	c := startChild(t, content, out) // held before the swap
	os.WriteFile(filepath.Join(out, "mine.txt"), []byte("mine"), 0o644)
	os.WriteFile(filepath.Join(out, "en", "notes.txt"), []byte("mine"), 0o644)
	c.release(t)
	if code := c.exitCode(t); code != 1 || !strings.Contains(c.output(), "en/notes.txt") || !strings.Contains(c.output(), "mine.txt") {
		t.Errorf("exit %d, want 1 naming the new files:\n%s", code, c.output())
	}
	for _, f := range []string{"mine.txt", "en/notes.txt", "en/index.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("%s is lost: %v", f, err)
		}
	}
}

// TestBindMountInContent (#39 row 12): a file bind-mounted into the
// content from elsewhere (same filesystem, another mount) is refused with
// its path. The mount is made in a mount namespace of the check's own, so
// that it ends with it; the test is skipped where that is not allowed.
func TestBindMountInContent(t *testing.T) {
	dir := repotest.ContentDir(t)
	secret := filepath.Join(t.TempDir(), "secret.json")
	os.WriteFile(secret, []byte("{\"id\": \"IL-9005\", \"s3cr3t\": x\n"), 0o600)
	target := filepath.Join(dir, "cases", "IL-9005.json")
	os.WriteFile(target, []byte("{}"), 0o644)
	probe := exec.Command("unshare", "-m", "--propagation", "private", "sh", "-c", `mount --bind "$1" "$2"`, "sh", secret, target)
	if out, err := probe.CombinedOutput(); err != nil {
		t.Skipf("no private bind mounts here: %v %s", err, out)
	}
	cmd := exec.Command("unshare", "-m", "--propagation", "private", "sh", "-c", `mount --bind "$1" "$2" && exec "$3" -test.run='^$'`, "sh", secret, target, os.Args[0])
	cmd.Env = append(os.Environ(), mainEnv+"=check\n-content\n"+dir)
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(string(out), "cases/IL-9005.json: cannot read: on another mount than the content folder") {
		t.Errorf("check with a bind-mounted case: exit %d (%v):\n%s", code, err, out)
	}
	if strings.Contains(string(out), "s3cr3t") {
		t.Errorf("check prints the bind-mounted file:\n%s", out)
	}
}
