package mcpserver

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"incidentlib/internal/httpsafe"
)

func TestCompress(t *testing.T) {
	big := strings.Repeat("event: message\ndata: {\"a\":1}\n\n", 200)
	h := compress(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, r.URL.Query().Get("body"))
		w.(http.Flusher).Flush()
	}))
	for _, tc := range []struct {
		accept, body string
		zipped       bool
	}{
		{"gzip, deflate", big, true},
		{"br;q=1.0, gzip;q=0.5", big, true},
		{"gzip;q=0", big, false},
		{"", big, false},
		{"gzip", "data: small\n\n", false},
	} {
		r := httptest.NewRequest("POST", "/mcp?body="+urlQuery(tc.body), nil)
		if tc.accept != "" {
			r.Header.Set("Accept-Encoding", tc.accept)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		got := w.Body.Bytes()
		if zipped := w.Header().Get("Content-Encoding") == "gzip"; zipped != tc.zipped {
			t.Errorf("Accept-Encoding %q, %d bytes: gzip %v, want %v", tc.accept, len(tc.body), zipped, tc.zipped)
			continue
		}
		if tc.zipped {
			zr, err := gzip.NewReader(bytes.NewReader(got))
			if err != nil {
				t.Fatal(err)
			}
			if got, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
			if w.Body.Len() >= len(tc.body)/2 {
				t.Errorf("%d bytes gzipped to %d", len(tc.body), w.Body.Len())
			}
		}
		if string(got) != tc.body || w.Code != 200 || !strings.Contains(w.Header().Get("Vary"), "Accept-Encoding") {
			t.Errorf("Accept-Encoding %q: %d %q…, Vary %q", tc.accept, w.Code, string(got[:min(len(got), 40)]), w.Header().Get("Vary"))
		}
	}
}

func urlQuery(s string) string {
	r := strings.NewReplacer("%", "%25", "\n", "%0A", "&", "%26", "+", "%2B", " ", "%20", "\"", "%22", "#", "%23", "{", "%7B", "}", "%7D")
	return r.Replace(s)
}

// TestKeepAlive: a quiet event stream gets comment lines, between whole
// events.
func TestKeepAlive(t *testing.T) {
	s := &Server{opt: Options{HTTP: HTTPOptions{KeepAlive: 50 * time.Millisecond}}}
	srv := httptest.NewServer(s.keepAlive(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; i < 3; i++ {
			io.WriteString(w, "event: message\ndata: {}\n\n")
			w.(http.Flusher).Flush()
			time.Sleep(300 * time.Millisecond)
		}
	})))
	defer srv.Close()
	res, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	body := string(b)
	if !strings.Contains(body, ": keep-alive\n\n") {
		t.Errorf("no keep-alive comment in %q", body)
	}
	// What is left without the comments is the three events, whole.
	if rest := strings.ReplaceAll(body, ": keep-alive\n\n", ""); rest != strings.Repeat("event: message\ndata: {}\n\n", 3) {
		t.Errorf("the events were cut: %q", body)
	}
}

// TestAccessLogClient: behind a trusted proxy the access log names the
// client of X-Forwarded-For, and the duration has sub-millisecond digits
// (a line of "0ms" tells nothing).
func TestAccessLogClient(t *testing.T) {
	proxies, _ := httpsafe.ParseProxies("127.0.0.1")
	var log bytes.Buffer
	s := &Server{opt: Options{Log: &log, HTTP: HTTPOptions{TrustProxy: proxies}}}
	h := s.accessLog(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.(*logResponse).rpc, w.(*logResponse).tool = "tools/call", "search_incidents"
		time.Sleep(2 * time.Millisecond)
	}))
	r := httptest.NewRequest("POST", "/mcp", nil)
	r.RemoteAddr = "127.0.0.1:4000"
	r.Header.Set("X-Forwarded-For", "198.51.100.7")
	h.ServeHTTP(httptest.NewRecorder(), r)
	if !regexp.MustCompile(`^\S+ 198\.51\.100\.7 POST /mcp 200 0B \d+\.\d{3}ms tools/call search_incidents\n$`).MatchString(log.String()) {
		t.Errorf("access log line: %q", log.String())
	}
	if strings.Contains(log.String(), " 0.000ms") {
		t.Errorf("no real duration: %q", log.String())
	}
}

// TestCompressBusy: with every gzip writer in use, a large answer goes out
// as it is, whole.
func TestCompressBusy(t *testing.T) {
	var held []*gzip.Writer
	for w := getGzip(); w != nil; w = getGzip() {
		held = append(held, w)
	}
	defer func() {
		for _, w := range held {
			putGzip(w)
		}
	}()
	if len(held) != gzipWriters {
		t.Errorf("%d writers, want %d", len(held), gzipWriters)
	}
	big := strings.Repeat("x", 4*gzipMin)
	h := compress(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, big) }))
	r := httptest.NewRequest("POST", "/mcp", nil)
	r.Header.Set("Accept-Encoding", "gzip")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Header().Get("Content-Encoding") != "" || w.Body.String() != big {
		t.Errorf("busy: %q, %d bytes", w.Header().Get("Content-Encoding"), w.Body.Len())
	}
}
