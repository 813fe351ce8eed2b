//go:build linux

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"incidentlib/internal/repotest"
	"incidentlib/internal/webtest"
)

// openerContent is a copy of content/ whose every summary starts with
// Markdown's worst shape, unclosed link openers, kb kilobytes of them in
// each language: the preview's search index and API then take seconds to
// make, and the API's cases.jsonl is tens of megabytes.
func openerContent(t *testing.T, kb int) string {
	t.Helper()
	dir := repotest.CopyDir(t, "content")
	worst := strings.Repeat("[a]( ![a]( [](", kb*1024/14)
	files, _ := filepath.Glob(filepath.Join(dir, "cases", "*.json"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c map[string]any
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatal(err)
		}
		s := c["summary"].(map[string]any)
		for lang, v := range s {
			s[lang] = worst + " " + v.(string)
		}
		out, _ := json.Marshal(c)
		if err := os.WriteFile(f, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// waitHealthy waits until base answers /healthz with 200, for as long as
// a loaded machine may need to load the library.
func waitHealthy(t *testing.T, base string) {
	t.Helper()
	if err := webtest.WaitFor(base+"healthz", 5*time.Minute, func(status int) bool { return status == 200 }); err != nil {
		t.Fatal(err)
	}
}

// slowReader sends GET path with a receive buffer of 4 kB and reads
// nothing: the answer fills the buffers and the server's writes block.
func slowReader(t *testing.T, base, path string) net.Conn {
	t.Helper()
	addr := strings.TrimSuffix(strings.TrimPrefix(base, "http://"), "/")
	d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		return rc.Control(func(fd uintptr) {
			syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
		})
	}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "GET /%s HTTP/1.1\r\nHost: %s\r\n\r\n", path, addr)
	return c
}

// cutShort reads the answer on c to its end and reports how much of the
// body came, of how much it announced.
func cutShort(t *testing.T, c net.Conn) (got, announced int64) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(2 * time.Minute))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	defer resp.Body.Close()
	got, _ = io.Copy(io.Discard, resp.Body)
	return got, resp.ContentLength
}

// exitOf waits for a server's process to end after a signal and returns
// its status and how long it took.
func exitOf(t *testing.T, cmd *exec.Cmd, bound time.Duration) (int, time.Duration) {
	t.Helper()
	signalled := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, time.Since(signalled)
	case <-time.After(bound):
		cmd.Process.Kill()
		t.Fatalf("still running %v after SIGTERM", bound)
		return -1, 0
	}
}

// TestServeDeadline (#39): a preview request ends at -request-timeout, and
// at SIGTERM. Over the built binary, on a library whose every summary is
// 150 kB of unclosed link openers:
//   - the first request for the API, whose files take many seconds to
//     make, is answered 503 at the deadline, and later requests get the
//     file, made on in the background;
//   - the 25 MB cases.jsonl, asked for by a client that reads nothing,
//     is cut off: read after the deadline and a few seconds, it is short;
//   - SIGTERM with such a client and a page being made stops the
//     process with status 0 within a second and a few seconds more.
//
// Every bound is the deadline plus seconds, never a figure the machine's
// speed decides; the statuses and the short answer are what fail on code
// without deadlines (200 after all the work; the whole file; status 1
// after 5 s).
func TestServeDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("makes a hostile library's extras in a child process")
	}
	const deadline = 2 * time.Second
	content := openerContent(t, 150)
	base, cmd, _ := startServer(t, 8192, "serve", "-content", content, "-addr", "127.0.0.1:0", "-request-timeout", deadline.String())
	waitHealthy(t, base)

	asked := time.Now()
	resp, err := http.Get(base + "api/v1/cases.json")
	took := time.Since(asked)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || took > deadline+10*time.Second || !bytes.Contains(b, []byte("-request-timeout")) {
		t.Errorf("the API while it is made: %s after %v, want 503 at the deadline (%v):\n%.300s", resp.Status, took.Round(time.Millisecond), deadline, b)
	}
	t.Logf("the API while it is made: %s after %v", resp.Status, took.Round(time.Millisecond))
	for end := time.Now().Add(5 * time.Minute); ; time.Sleep(time.Second) {
		resp, err := http.Get(base + "api/v1/cases.json")
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == 200 {
				t.Logf("the API was made %v after the first request", time.Since(asked).Round(time.Second))
				break
			}
		}
		if time.Now().After(end) {
			t.Fatalf("the API was never made: %v", err)
		}
	}

	c := slowReader(t, base, "api/v1/cases.jsonl")
	time.Sleep(deadline + 5*time.Second)
	got, announced := cutShort(t, c)
	if announced < 8<<20 {
		t.Fatalf("cases.jsonl is %d bytes: too small to fill the buffers, the test proves nothing", announced)
	}
	if got >= announced {
		t.Errorf("a client that read nothing for %v got all of cases.jsonl (%d bytes): the deadline did not end the answer", deadline+5*time.Second, got)
	}
	t.Logf("cases.jsonl to a client that reads nothing: cut after %d of %d bytes", got, announced)

	// SIGTERM while a client reads nothing and a page is being made.
	slowReader(t, base, "api/v1/cases.jsonl")
	page := make(chan error, 1)
	go func() {
		resp, err := http.Get(base + "en/cases/")
		if err == nil {
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		page <- err
	}()
	code, stopped := exitOf(t, cmd, time.Minute)
	t.Logf("SIGTERM stopped the preview in %v, status %d", stopped.Round(time.Millisecond), code)
	if code != 0 || stopped > time.Second+8*time.Second {
		t.Errorf("SIGTERM: status %d after %v, want 0 within a second and a few more", code, stopped)
	}
	select {
	case <-page:
	case <-time.After(30 * time.Second):
		t.Errorf("a page asked for before SIGTERM is still not answered or closed")
	}
}

// dribble sends a POST to /mcp announcing a body of 200 kB and sends it
// at 4 kB a second, above the minimum rate (50 s in all), until the server
// answers or closes. It returns the answer's status line (or the error)
// once the server did, and how much was sent.
func dribble(t *testing.T, base string, started chan<- bool) (answer string, sent int) {
	t.Helper()
	addr := strings.TrimSuffix(strings.TrimPrefix(base, "http://"), "/")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n", addr, 200<<10)
	stop := make(chan struct{})
	sentc := make(chan int, 1)
	go func() {
		n := 0
		defer func() { sentc <- n }()
		chunk := bytes.Repeat([]byte(" "), 400)
		for n < 200<<10 {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			k, err := c.Write(chunk)
			n += k
			if err != nil {
				return
			}
			if n == 4000 && started != nil {
				started <- true // a second of body has gone
			}
		}
	}()
	c.SetReadDeadline(time.Now().Add(2 * time.Minute))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	close(stop)
	if err != nil {
		answer = err.Error()
	} else {
		answer = resp.Status
	}
	return answer, <-sentc
}

// TestMCPDeadline (#39): an MCP request whose body comes slowly, but
// above the minimum rate, ends at -call-timeout (the request's deadline),
// not when the client is done, and at SIGTERM even with a long
// -shutdown-grace: it has asked for nothing yet. Over the built binary.
func TestMCPDeadline(t *testing.T) {
	if testing.Short() {
		t.Skip("sends slow bodies to servers in child processes")
	}
	content := repotest.Dir(t, "content")
	const callTimeout = 2 * time.Second
	base, _, _ := startServer(t, 8192, "mcp", "-content", content, "-http", "127.0.0.1:0", "-call-timeout", callTimeout.String())
	waitHealthy(t, base)
	start := time.Now()
	answer, sent := dribble(t, base, nil)
	took := time.Since(start)
	t.Logf("a slow body: ended after %v, %d bytes sent: %s", took.Round(time.Millisecond), sent, answer)
	if took > callTimeout+10*time.Second || sent >= 200<<10 {
		t.Errorf("a body of 50 s: ended after %v with %d of %d bytes sent, want it ended at -call-timeout (%v)", took, sent, 200<<10, callTimeout)
	}

	// SIGTERM with a body on its way: the server ends it and stops, with
	// status 0, long before -shutdown-grace.
	base, cmd, _ := startServer(t, 8192, "mcp", "-content", content, "-http", "127.0.0.1:0", "-call-timeout", "1m", "-shutdown-grace", "1m")
	waitHealthy(t, base)
	started := make(chan bool, 1)
	ended := make(chan int, 1)
	go func() {
		_, sent := dribble(t, base, started)
		ended <- sent
	}()
	select {
	case <-started:
	case <-time.After(time.Minute):
		t.Fatal("the slow body never started")
	}
	code, stopped := exitOf(t, cmd, 2*time.Minute)
	t.Logf("SIGTERM with a slow body on its way: stopped in %v, status %d", stopped.Round(time.Millisecond), code)
	if code != 0 || stopped > 10*time.Second {
		t.Errorf("SIGTERM with a slow body on its way: status %d after %v, want 0 within seconds (-shutdown-grace is 1m)", code, stopped)
	}
	select {
	case sent := <-ended:
		if sent >= 200<<10 {
			t.Errorf("the slow body was read to its end (%d bytes)", sent)
		}
	case <-time.After(time.Minute):
		t.Errorf("the slow body's connection is still open after the server stopped")
	}
}
