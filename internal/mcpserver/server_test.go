package mcpserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/repotest"
)

func TestAllowedOrigin(t *testing.T) {
	for _, tt := range []struct {
		origin, host string
		want         bool
	}{
		{"http://127.0.0.1:8765", "127.0.0.1:8765", true},
		{"http://localhost:3000", "127.0.0.1:8765", true},
		{"http://127.0.0.2:3000", "127.0.0.1:8765", true},
		{"http://[::1]:5173", "127.0.0.1:8765", true},
		{"https://LOCALHOST", "127.0.0.1:8765", true},
		{"http://mcp.example:8080", "mcp.example:8080", true}, // its own, when served beyond this machine
		{"https://evil.example", "127.0.0.1:8765", false},
		{"http://mcp.example:9090", "mcp.example:8080", false},
		{"http://localhost.evil.example", "127.0.0.1:8765", false},
		{"http://127.0.0.1.evil.example", "127.0.0.1:8765", false},
		{"null", "127.0.0.1:8765", false},
		{"file://", "127.0.0.1:8765", false},
		{"chrome-extension://abc", "127.0.0.1:8765", false},
		{"http://192.168.1.10", "127.0.0.1:8765", false},
	} {
		if got := (&Server{}).allowedOrigin(tt.origin, tt.host); got != tt.want {
			t.Errorf("allowedOrigin(%q, %q) = %v", tt.origin, tt.host, got)
		}
	}
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// TestHTTPOrigin sends an initialize request over HTTP with and without a
// foreign Origin.
func TestHTTPOrigin(t *testing.T) {
	srv, _ := sharedServer(t)
	hs := httptest.NewServer(srv.httpHandler())
	defer hs.Close()
	post := func(origin string) (int, string) {
		req, _ := http.NewRequest("POST", hs.URL+mcpPath, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var b strings.Builder
		buf := make([]byte, 4096)
		n, _ := res.Body.Read(buf)
		b.Write(buf[:n])
		return res.StatusCode, b.String()
	}
	for origin, want := range map[string]int{
		"":                      http.StatusOK,
		"http://localhost:5173": http.StatusOK,
		hs.URL:                  http.StatusOK,
		"https://evil.example":  http.StatusForbidden,
		"null":                  http.StatusForbidden,
	} {
		code, body := post(origin)
		if code != want {
			t.Errorf("Origin %q: %d, want %d: %s", origin, code, want, body)
		}
		if want == http.StatusOK && !strings.Contains(body, `"serverInfo"`) {
			t.Errorf("Origin %q: no initialize result: %s", origin, body)
		}
		if want == http.StatusForbidden && !strings.Contains(body, "only pages of this server") {
			t.Errorf("Origin %q: refusal does not say what is allowed: %s", origin, body)
		}
	}
	res, err := http.Get(hs.URL + "/other")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("/other: %d", res.StatusCode)
	}
}

// TestReload edits, breaks, fixes, adds and removes case files while a
// client is connected, and checks that each answer comes from the library
// as saved.
func TestReload(t *testing.T) {
	dir := repotest.ContentDir(t)
	srv, err := New(Options{Content: dir, Debounce: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	wait, err := srv.watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); wait() }()
	cs := connectTo(t, srv)

	file := filepath.Join(dir, "cases", "IL-0495.json")
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// until calls get_incident until check accepts the answer.
	until := func(what string, check func(res *mcp.CallToolResult) bool) {
		t.Helper()
		for t0 := time.Now(); ; time.Sleep(20 * time.Millisecond) {
			res, err := cs.CallTool(ctx, toolCall("get_incident", map[string]any{"id": "IL-0495", "lang": "en"}))
			if err != nil {
				t.Fatal(err)
			}
			if check(res) {
				return
			}
			if time.Since(t0) > 2*time.Minute { // a hang, not a busy machine
				t.Fatalf("%s: still answered %.300s … %s", what, resultText(res), tail(resultText(res)))
			}
		}
	}
	edited := strings.Replace(string(orig), `"title":{"en":"`, `"title":{"en":"Edited: `, 1)
	if edited == string(orig) {
		t.Fatal("the edit changed nothing")
	}
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	until("an edit", func(res *mcp.CallToolResult) bool { return strings.Contains(resultText(res), "# IL-0495: Edited: ") })

	if err := os.WriteFile(file, []byte(`{"id": "IL-0495",`), 0o644); err != nil {
		t.Fatal(err)
	}
	// A broken file: the last library that loaded answers, with a note.
	until("a broken file", func(res *mcp.CallToolResult) bool {
		return !res.IsError && strings.Contains(resultText(res), "# IL-0495: Edited: ") && strings.Contains(resultText(res), "The library is degraded: its files have ")
	})
	if err := os.WriteFile(file, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	until("the fix", func(res *mcp.CallToolResult) bool {
		return !res.IsError && !strings.Contains(resultText(res), "Edited")
	})

	// A new case is found and listed as a resource; a removed one is gone.
	added := strings.Replace(strings.Replace(string(orig), `"IL-0495"`, `"IL-0999"`, 1), `"title":{"en":"`, `"title":{"en":"Quetzalcoatl: `, 1)
	if err := os.WriteFile(filepath.Join(dir, "cases", "IL-0999.json"), []byte(added), 0o644); err != nil {
		t.Fatal(err)
	}
	var s searchOutput
	for t0 := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		callTool(t, cs, "search_incidents", map[string]any{"query": "quetzalcoatl"}, &s)
		if s.Total == 1 && s.Cases[0].ID == "IL-0999" {
			break
		}
		if time.Since(t0) > 2*time.Minute { // a hang, not a busy machine
			t.Fatalf("the new case is not found: %+v", s)
		}
	}
	listed := func(uri string) bool {
		for r, err := range cs.Resources(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			if r.URI == uri {
				return true
			}
		}
		return false
	}
	// The model is swapped in before its resources are registered: wait
	// for them as for the answers.
	for t0 := time.Now(); !listed("incidentlib://cases/IL-0999"); time.Sleep(20 * time.Millisecond) {
		if time.Since(t0) > 2*time.Minute { // a hang, not a busy machine
			t.Fatal("the new case is not a resource")
		}
	}
	if err := os.Remove(filepath.Join(dir, "cases", "IL-0999.json")); err != nil {
		t.Fatal(err)
	}
	for t0 := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		res, err := cs.CallTool(ctx, toolCall("get_incident", map[string]any{"id": "IL-0999"}))
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError && strings.Contains(resultText(res), "no case IL-0999") {
			break
		}
		if time.Since(t0) > 2*time.Minute { // a hang, not a busy machine
			t.Fatal("the removed case is still answered")
		}
	}
	for t0 := time.Now(); listed("incidentlib://cases/IL-0999"); time.Sleep(20 * time.Millisecond) {
		if time.Since(t0) > 2*time.Minute { // a hang, not a busy machine
			t.Fatal("the removed case is still a resource")
		}
	}
}

func TestListenAddr(t *testing.T) {
	for addr, want := range map[string]string{
		"8765":            "127.0.0.1:8765",
		":8765":           "127.0.0.1:8765",
		"127.0.0.1:0":     "127.0.0.1:0",
		"localhost:8765":  "localhost:8765",
		"[::1]:8765":      "[::1]:8765",
		"0.0.0.0:8765":    "0.0.0.0:8765", // told otherwise
		"mcp.example:443": "mcp.example:443",
	} {
		if got := ListenAddr(addr, false); got != want {
			t.Errorf("ListenAddr(%q) = %q, want %q", addr, got, want)
		}
		if got := ListenAddr(addr, true); strings.HasPrefix(addr, "127") && got != want || !strings.HasPrefix(addr, "127") && strings.Contains(got, "127.0.0.1") {
			t.Errorf("ListenAddr(%q, public) = %q", addr, got)
		}
	}
}

// TestAllowedHost checks the Host check of a public server and of one
// without a public address.
func TestAllowedHost(t *testing.T) {
	pub, _ := url.Parse("https://mcp.example.org/")
	public := &Server{opt: Options{HTTP: HTTPOptions{PublicURL: pub}}}
	local := &Server{}
	for _, tt := range []struct {
		host          string
		public, local bool
	}{
		{"mcp.example.org", true, false},
		{"MCP.Example.org:443", true, false},
		{"mcp.example.org:80", false, false},
		{"mcp.example.org.evil.example", false, false},
		{"evil.example", false, false},
		{"127.0.0.1:8080", true, true},
		{"localhost", true, true},
		{"[::1]:8080", true, true},
		{"", false, false},
	} {
		if got := public.allowedHost(tt.host); got != tt.public {
			t.Errorf("public server, Host %q: %v", tt.host, got)
		}
		if got := local.allowedHost(tt.host); got != tt.local {
			t.Errorf("local server, Host %q: %v", tt.host, got)
		}
	}
	for origin, want := range map[string]bool{
		"https://mcp.example.org":     true,
		"https://mcp.example.org:443": true,
		"http://mcp.example.org":      false,
		"https://evil.example":        false,
		"http://localhost:5173":       true,
	} {
		if got := public.allowedOrigin(origin, "mcp.example.org"); got != want {
			t.Errorf("public server, Origin %q: %v", origin, got)
		}
	}
}

func tail(s string) string { return s[max(0, len(s)-400):] }
