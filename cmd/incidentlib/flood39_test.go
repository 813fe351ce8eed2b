//go:build linux

package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"incidentlib/internal/repotest"
)

// rss is the resident memory of a process in MB.
func rss(pid int) int {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	m := regexp.MustCompile(`VmRSS:\s+(\d+) kB`).FindSubmatch(b)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n >> 10
}

// TestHostileConnections (#39 row 4): with 2,000 hostile connections open
// (bodies that send one byte, headers never ended and, on the preview,
// event streams that never end), both servers answer /healthz and a normal
// request. It logs the closing note's figures: connections held, the
// slowest answer, the server's memory.
func TestHostileConnections(t *testing.T) {
	if testing.Short() {
		t.Skip("floods two servers in child processes")
	}
	content := repotest.Dir(t, "content")
	for _, tc := range []struct {
		name, page, stream, post string
		args                     []string
	}{
		{"serve", "en/", "_incidentlib/events", "en/", []string{"serve", "-content", content, "-addr", "127.0.0.1:0"}},
		{"mcp", "healthz", "", "mcp", []string{"mcp", "-content", content, "-http", "127.0.0.1:0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, cmd, _ := startServer(t, 8192, tc.args...)
			addr := strings.TrimSuffix(strings.TrimPrefix(base, "http://"), "/")
			var mu sync.Mutex
			var conns []net.Conn
			t.Cleanup(func() {
				mu.Lock()
				defer mu.Unlock()
				for _, c := range conns {
					c.Close()
				}
			})
			const hostile = 2000
			for i := 0; i < hostile; i++ {
				c, err := net.DialTimeout("tcp", addr, 5*time.Second)
				if err != nil {
					continue // the backlog is full: the flood goes on
				}
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
				c.SetWriteDeadline(time.Now().Add(5 * time.Second))
				switch {
				case i%3 == 2:
					// Headers half sent, never ended.
					fmt.Fprintf(c, "GET /%s HTTP/1.1\r\nHost: %s\r\nX-Slow: ", tc.page, addr)
				case i%3 == 0 || tc.stream == "":
					fmt.Fprintf(c, "POST /%s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{", tc.post, addr)
				default:
					fmt.Fprintf(c, "GET /%s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n", tc.stream, addr)
				}
			}
			time.Sleep(2 * time.Second) // let the server take them all in
			client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
			answered := 0
			var slowest time.Duration // the longest answer, for the closing note's figures
			for _, path := range []string{"healthz", tc.page, "healthz"} {
				asked := time.Now()
				resp, err := client.Get(base + path)
				slowest = max(slowest, time.Since(asked))
				if err != nil {
					t.Errorf("GET /%s during the flood: %v", path, err)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					t.Errorf("GET /%s during the flood: %s", path, resp.Status)
					continue
				}
				answered++
			}
			flooded := time.Now()
			countOpen := func() int {
				open := 0
				mu.Lock()
				defer mu.Unlock()
				for _, c := range conns {
					// Read what the server sent; a connection it closed ends
					// in EOF, one it holds in a timeout.
					var b [4096]byte
					for {
						c.SetReadDeadline(time.Now().Add(time.Millisecond))
						if _, err := c.Read(b[:]); err != nil {
							if os.IsTimeout(err) {
								open++
							}
							break
						}
					}
				}
				return open
			}
			t.Logf("%s: %d hostile connections made, %d held; %d of 3 requests answered, the slowest in %v; server RSS %d MB", tc.name, len(conns), countOpen(), answered, slowest.Round(time.Millisecond), rss(cmd.Process.Pid))
			// Bodies have a minimum rate: a body of one byte is dropped
			// after the grace (5 s); event streams stay, within their cap.
			time.Sleep(time.Until(flooded.Add(15 * time.Second)))
			if open := countOpen(); open > 2000/4+10 {
				t.Errorf("%s: %d hostile connections still held 15 s later: slow bodies are kept", tc.name, open)
			} else {
				t.Logf("%s: %d held 15 s later", tc.name, open)
			}
		})
	}
}
