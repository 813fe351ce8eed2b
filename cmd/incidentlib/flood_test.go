//go:build unix

package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"incidentlib/internal/repotest"
	"incidentlib/internal/webtest"
)

// nofileEnv sets the child's limit on open files (see limitFiles).
const nofileEnv = "INCIDENTLIB_TEST_NOFILE"

// limitFiles lowers the process's limit on open files to what nofileEnv
// says, for a test that floods a server in a child process. Go raises the
// soft limit to the hard one at start, so both are set.
func limitFiles() {
	n, err := strconv.ParseUint(os.Getenv(nofileEnv), 10, 64)
	if err != nil {
		return
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
		fmt.Fprintln(os.Stderr, "setrlimit:", err)
		os.Exit(3)
	}
}

// startServer runs "incidentlib" with args in a child process that may
// open nofile files (webtest.StartServer), and returns the address it
// listens on, its process and what it printed so far.
func startServer(t *testing.T, nofile int, args ...string) (string, *exec.Cmd, func() string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), mainEnv+"="+strings.Join(args, "\n"), nofileEnv+"="+strconv.Itoa(nofile))
	base, log := webtest.StartServer(t, cmd)
	return base, cmd, log
}

// TestConnectionFlood floods a preview that may open 128 files with 400
// connections, half of them idle between requests (keep-alive), half that
// never send a request. New requests are still answered at once, and a
// save is still read: the connections cannot take the descriptors that
// reading the content needs.
func TestConnectionFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server in a child process")
	}
	dir := repotest.CopyDir(t, "content")
	base, _, log := startServer(t, 128, "serve", "-content", dir, "-addr", "127.0.0.1:0")
	addr := strings.TrimSuffix(strings.TrimPrefix(base, "http://"), "/")

	var conns []net.Conn
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	for i := 0; i < 400; i++ {
		c, err := net.DialTimeout("tcp", addr, 5*time.Second)
		if err != nil {
			break // the backlog is full: that is a flood too
		}
		conns = append(conns, c)
		if i%2 == 0 {
			continue // sends nothing
		}
		c.SetDeadline(time.Now().Add(5 * time.Second))
		fmt.Fprintf(c, "GET /en/ HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		c.SetDeadline(time.Time{})
	}
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	get := func() (int, string, error) {
		resp, err := client.Get(base + "en/cases/IL-0495/")
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), err
	}
	if status, _, err := get(); err != nil || status != 200 {
		t.Fatalf("a request during the flood: %d, %v\n%s", status, err, log())
	}
	// A save during the flood is read.
	file := filepath.Join(dir, "cases", "IL-0495.json")
	b, _ := os.ReadFile(file)
	const title = "Edited during a connection flood"
	edited := regexp.MustCompile(`"title":\{"en":"[^"]*"`).ReplaceAllString(string(b), `"title":{"en":"`+title+`"`)
	if edited == string(b) {
		t.Fatal("IL-0495's title not found: update the test")
	}
	os.WriteFile(file, []byte(edited), 0o644)
	deadline := time.Now().Add(20 * time.Second)
	for {
		status, body, err := get()
		if err == nil && status == 200 && strings.Contains(body, title) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the edit never showed during the flood (last: %d, %v)\n%s", status, err, log())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if out := log(); strings.Contains(out, "too many open files") {
		t.Errorf("the server ran out of files:\n%s", out)
	}
}
