package httpsafe

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

func TestListenURL(t *testing.T) {
	for addr, want := range map[string]struct {
		url    string
		public bool
	}{
		"127.0.0.1:1313":  {"http://127.0.0.1:1313/", false},
		"[::1]:1313":      {"http://[::1]:1313/", false},
		"[::]:1313":       {"http://localhost:1313/", true},
		"0.0.0.0:1313":    {"http://localhost:1313/", true},
		"192.0.2.7:1313":  {"http://192.0.2.7:1313/", true},
		"localhost:1313":  {"http://localhost:1313/", false},
		"[2001:db8::1]:1": {"http://[2001:db8::1]:1/", true},
	} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if addr == "localhost:1313" {
			a = nil
		}
		var url string
		var public bool
		if a == nil {
			url, public = ListenURL(stringAddr(addr))
		} else {
			url, public = ListenURL(a)
		}
		if url != want.url || public != want.public {
			t.Errorf("%s: %s, public %v; want %s, %v", addr, url, public, want.url, want.public)
		}
	}
}

type stringAddr string

func (a stringAddr) Network() string { return "tcp" }
func (a stringAddr) String() string  { return string(a) }

// TestConnCap: with the cap reached by connections between requests and
// connections that sent nothing, a new connection is answered at once, in
// the place of the one idle the longest; with every connection busy, the
// new one is closed.
func TestConnCap(t *testing.T) {
	release := make(chan struct{})
	started := make(chan bool, 4)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			started <- true
			<-release
		}
		fmt.Fprint(w, "ok")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, capped := NewServer(h, ln, Limits{MaxConns: 4})
	go srv.Serve(capped)
	t.Cleanup(func() { close(release); srv.Close() })
	addr := ln.Addr().String()
	dial := func(path string, wait bool) net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		if path == "" {
			return c
		}
		fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path)
		if wait {
			c.SetDeadline(time.Now().Add(time.Minute))
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatalf("GET %s: %v", path, err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return c
	}
	for i := 0; i < 10; i++ {
		dial("/", i%2 == 0) // five idle between requests, five that sent nothing
	}
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Get("http://" + addr + "/")
	if err != nil {
		t.Fatalf("a request over the cap of idle connections: %v", err)
	}
	resp.Body.Close()

	// The limiter's own view decides which connection goes, so the test
	// waits for it, not for a time: first until no connection of the idle
	// phase is still busy finishing its answer (the server marks one idle
	// only after the client has read the answer), then, one slow request at
	// a time, until its handler runs (the server marks a connection active
	// before its handler): a connection that has read its request but is
	// not marked yet could be taken for an idle one.
	l := capped.(*limitListener)
	waitState(t, l, func(st http.ConnState) bool { return st != http.StateActive })
	for i := 0; i < 4; i++ {
		dial("/slow", false)
		<-started
	}
	waitState(t, l, func(st http.ConnState) bool { return st == http.StateActive })
	c := dial("", false)
	c.SetReadDeadline(time.Now().Add(time.Minute))
	if _, err := c.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("a connection over a cap of busy ones: %v, want it closed (EOF)", err)
	}
}

// TestStreamOutlivesReadTimeout: an event stream (the preview's reload
// channel, MCP's notifications) stays open past the read timeout.
func TestStreamOutlivesReadTimeout(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for {
			fmt.Fprint(w, "data: tick\n\n")
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, capped := NewServer(h, ln, Limits{})
	srv.ReadTimeout = 200 * time.Millisecond
	go srv.Serve(capped)
	t.Cleanup(func() { srv.Close() })
	for _, accept := range []string{"text/event-stream", ""} {
		req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/", nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(resp.Body)
		deadline := time.Now().Add(time.Second) // five read timeouts
		open := true
		for time.Now().Before(deadline) {
			if !sc.Scan() {
				open = false
				break
			}
		}
		resp.Body.Close()
		if !open {
			t.Errorf("Accept %q: stream open after five read timeouts: %v", accept, open)
		}
	}
}

// waitState waits until every connection l holds is in a state ok takes,
// for as long as a loaded machine may need.
func waitState(t *testing.T, l *limitListener, ok func(http.ConnState) bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		l.mu.Lock()
		all := true
		for c := range l.conns {
			all = all && ok(c.state)
		}
		l.mu.Unlock()
		if all {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the connections never reached the state the test waits for")
		}
	}
}
