package mcpserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"incidentlib/internal/repotest"
)

// post sends one POST to the handler from the client address from, and
// returns the status, the session it opened and the body.
func post(h http.Handler, from, version, body string) (int, string, string) {
	r := httptest.NewRequest("POST", mcpPath, strings.NewReader(body))
	r.RemoteAddr, r.Host = from+":40000", "127.0.0.1:8765"
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	if version != "" {
		r.Header.Set("Mcp-Protocol-Version", version)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code, w.Header().Get("Mcp-Session-Id"), w.Body.String()
}

// TestSessionCaps (#39 rows 3 and 14): sessions are capped per client
// address as well as in all; a batch initialize counts like a single one;
// under pressure the session idle the longest makes room; a batch holds a
// bounded number of messages.
func TestSessionCaps(t *testing.T) {
	srv, err := New(Options{Content: repotest.ContentFolder(t),
		HTTP: HTTPOptions{MaxSessions: 8, SessionIdle: time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	srv.reclaimAfter = 300 * time.Millisecond
	h := srv.httpHandler()
	t.Cleanup(func() {
		for ss := range srv.mcp.Sessions() {
			ss.Close()
		}
	})
	open := func(from, version, body string) int {
		code, _, _ := post(h, from, version, body)
		return code
	}
	batch := "[" + initialize + "]"
	// One address gets its share (a quarter), singly or in batches.
	for i := 0; i < 2; i++ {
		if code := open("192.0.2.1", "", initialize); code != 200 {
			t.Fatalf("initialize %d: %d", i, code)
		}
	}
	if code := open("192.0.2.1", "", initialize); code != http.StatusTooManyRequests {
		t.Errorf("a third session of one address: %d, want 429", code)
	}
	if code := open("192.0.2.1", "2025-03-26", batch); code != http.StatusTooManyRequests {
		t.Errorf("a batch initialize past the address's share: %d, want 429", code)
	}
	// Others fill the rest, batches counted too.
	for i, from := range []string{"192.0.2.2", "192.0.2.2", "192.0.2.3", "192.0.2.3", "192.0.2.4", "192.0.2.4"} {
		body, version := initialize, ""
		if i%2 == 1 {
			body, version = batch, "2025-03-26"
		}
		if code := open(from, version, body); code != 200 {
			t.Fatalf("session %d from %s: %d", i+3, from, code)
		}
	}
	if n := srv.sessions(); n != 8 {
		t.Fatalf("%d sessions open, want 8", n)
	}
	if code := open("192.0.2.5", "2025-03-26", batch); code != http.StatusServiceUnavailable {
		t.Errorf("a batch initialize past the cap: %d, want 503", code)
	}
	// Idle sessions make room under pressure.
	time.Sleep(2 * srv.reclaimAfter)
	if code := open("192.0.2.5", "", initialize); code != 200 {
		t.Errorf("an initialize at the cap with idle sessions: %d, want 200", code)
	}
	if n := srv.sessions(); n > 8 {
		t.Errorf("%d sessions open, the cap is 8", n)
	}
	// A batch of more than maxBatch messages is refused whole.
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	big := "[" + strings.TrimSuffix(strings.Repeat(ping+",", maxBatch+1), ",") + "]"
	if code, _, body := post(h, "192.0.2.6", "2025-03-26", big); code != http.StatusBadRequest || !strings.Contains(body, "at most") {
		t.Errorf("a batch of %d: %d %s", maxBatch+1, code, body)
	}
}

// TestHTTPHostileMessages (#39 row 5): over HTTP, a message nested 1,000
// deep and a response whose error is a string get a JSON-RPC error (not
// the protocol server's plain-text 400), and an id beyond 2^53 comes back
// as it was sent.
func TestHTTPHostileMessages(t *testing.T) {
	srv, _ := sharedServer(t)
	h := srv.httpHandler()
	deep := strings.Repeat(`{"a":`, 1000) + "1" + strings.Repeat("}", 1000)
	for body, id := range map[string]string{
		`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"x":` + deep + `}}`: `"id":3`,
		`{"jsonrpc":"2.0","id":4,"error":"x"}`:                                       `"id":4`,
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"initialize","params":{}}`:  `"id":9007199254740993`,
	} {
		code, _, got := post(h, "192.0.2.9", "", body)
		if code != http.StatusBadRequest || !strings.Contains(got, `"jsonrpc":"2.0"`) || !strings.Contains(got, id) || !strings.Contains(got, `"code":-32600`) {
			t.Errorf("%.60s: %d %s", body, code, got)
		}
	}
}
