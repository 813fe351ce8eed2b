package e2e

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/repotest"
)

// Hosting (#40): a server that loaded a library keeps answering from it
// when a save breaks the content, and says so; a server that never loaded
// fails its health check; public clients never see a path of the server.

// startServer starts the built command with args and returns the base URL
// it names on standard error (http://127.0.0.1:PORT/) and its log.
func startServer(t *testing.T, args ...string) (string, *syncBuilder) {
	t.Helper()
	cmd := exec.Command(builtMCP(t), args...)
	errPipe, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	log := &syncBuilder{}
	lines := bufio.NewScanner(errPipe)
	addr := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	base := ""
	for base == "" && lines.Scan() {
		log.b.WriteString(lines.Text() + "\n")
		base = addr.FindString(lines.Text())
	}
	if base == "" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("no address on standard error:\n%s", log.String())
	}
	done := make(chan struct{})
	go func() {
		for lines.Scan() {
			log.mu.Lock()
			log.b.WriteString(lines.Text() + "\n")
			log.mu.Unlock()
		}
		cmd.Wait()
		close(done)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	return base, log
}

// health returns /healthz's status and body.
func health(t *testing.T, base string) (int, string) {
	t.Helper()
	res, err := http.Get(base + "healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// waitHealth polls /healthz until its body starts with prefix.
func waitHealth(t *testing.T, base, prefix string) (int, string) {
	t.Helper()
	for t0 := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		status, body := health(t, base)
		if strings.HasPrefix(body, prefix) {
			return status, body
		}
		if time.Since(t0) > 5*time.Minute {
			t.Fatalf("/healthz still says %d %q, want %q…", status, body, prefix)
		}
	}
}

// noPath fails when an answer to a public client names a file of the
// server: the content folder, or any path under the temporary folder.
// (A case page links to its source in the repository, which is public.)
func noPath(t *testing.T, what, answer, dir string) {
	t.Helper()
	for _, p := range []string{dir, os.TempDir() + "/"} {
		if strings.Contains(answer, p) {
			t.Errorf("%s names %q: %.400s", what, p, answer)
		}
	}
}

func breakCase(t *testing.T, dir string) (restore func()) {
	t.Helper()
	file := filepath.Join(dir, "cases", "IL-0495.json")
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(`{"id": "IL-0495",`), 0o644); err != nil {
		t.Fatal(err)
	}
	return func() {
		if err := os.WriteFile(file, orig, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMCPLastGoodLibrary(t *testing.T) {
	dir := repotest.ContentDir(t)
	base, log := startServer(t, "mcp", "-content", dir, "-http", "127.0.0.1:0")
	if status, body := health(t, base); status != 200 || !strings.HasPrefix(body, "ok: ") {
		t.Fatalf("/healthz before: %d %q", status, body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	restore := breakCase(t, dir)
	status, body := waitHealth(t, base, "degraded: ")
	if status != 200 || !regexp.MustCompile(`^degraded: \d+ problems`).MatchString(body) {
		t.Errorf("/healthz while broken: %d %q", status, body)
	}
	noPath(t, "/healthz", body, dir)
	if strings.Contains(body, "IL-0495") || strings.Contains(body, ".json") {
		t.Errorf("/healthz names the broken file: %q", body)
	}
	for _, id := range []string{"IL-0495", "IL-0011"} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_incident", Arguments: map[string]any{"id": id}})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError || !strings.Contains(text, "# "+id+": ") || !strings.Contains(text, "The library is degraded") {
			t.Errorf("get_incident %s while broken: error %v, %.300s … %s", id, res.IsError, text, text[max(0, len(text)-300):])
		}
		noPath(t, "get_incident "+id, text, dir)
	}
	if !strings.Contains(log.String(), "cases/IL-0495.json") {
		t.Errorf("the server's own log does not name the broken file:\n%s", log.String())
	}
	restore()
	waitHealth(t, base, "ok: ")
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_incident", Arguments: map[string]any{"id": "IL-0495"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; res.IsError || strings.Contains(text, "The library is degraded") {
		t.Errorf("after the fix: %.300s", text)
	}
}

// TestNeverLoaded: a server whose content has errors from the start has
// nothing to answer from: /healthz fails, tools report the errors by
// count, and nothing names a path.
func TestNeverLoaded(t *testing.T) {
	dir := repotest.ContentDir(t)
	breakCase(t, dir)
	base, _ := startServer(t, "mcp", "-content", dir, "-http", "127.0.0.1:0", "-stateless")
	status, body := health(t, base)
	if status != http.StatusServiceUnavailable {
		t.Errorf("mcp /healthz: %d %q, want 503", status, body)
	}
	noPath(t, "mcp /healthz", body, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search_incidents", Arguments: map[string]any{"query": "ingress"}})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !res.IsError || !strings.Contains(text, "has not loaded") {
		t.Errorf("a tool of a server that never loaded: %v %s", res.IsError, text)
	}
	noPath(t, "the tool error", text, dir)

	sbase, _ := startServer(t, "serve", "-content", dir, "-addr", "127.0.0.1:0")
	if status, body := health(t, sbase); status != http.StatusServiceUnavailable {
		t.Errorf("serve /healthz: %d %q, want 503", status, body)
	}
}

// TestServeDegraded: the preview's /healthz says degraded, with a count
// and no path, while a save broke a library that had loaded.
func TestServeDegraded(t *testing.T) {
	dir := repotest.ContentDir(t)
	base, _ := startServer(t, "serve", "-content", dir, "-addr", "127.0.0.1:0")
	if status, body := health(t, base); status != 200 || body != "ok\n" {
		t.Fatalf("/healthz before: %d %q", status, body)
	}
	restore := breakCase(t, dir)
	status, body := waitHealth(t, base, "degraded: ")
	if status != 200 || !regexp.MustCompile(`^degraded: \d+ problems\n$`).MatchString(body) {
		t.Errorf("/healthz while broken: %d %q", status, body)
	}
	noPath(t, "/healthz", body, dir)
	restore()
	waitHealth(t, base, "ok")
}
