package mcpserver

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestAccessLogOneLine (#39 row 18): whatever a request carries (a path
// with an encoded line break, a JSON-RPC method with one, escape
// sequences), it is one line of the access log, its control characters
// escaped.
func TestAccessLogOneLine(t *testing.T) {
	var log bytes.Buffer
	s := &Server{opt: Options{Log: &log}}
	h := s.accessLog(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.(*logResponse).rpc = "ping\n2026-01-01T00:00:00Z 6.6.6.6 POST /mcp 200 1B 0ms forged"
		w.(*logResponse).tool = "\x1b[2J"
	}))
	r := httptest.NewRequest("POST", "/mcp%0a2026-01-01T00:00:00Z%206.6.6.6%20GET%20/x%20200", nil)
	h.ServeHTTP(httptest.NewRecorder(), r)
	got := log.String()
	if strings.Count(got, "\n") != 1 || strings.ContainsRune(got, 0x1b) {
		t.Errorf("the access log holds a forged line or an escape sequence:\n%q", got)
	}
	if !strings.Contains(got, `\n2026-01-01`) || !strings.Contains(got, `\x1b[2J`) {
		t.Errorf("the fields are not shown escaped:\n%q", got)
	}
}
