//go:build unix

package main

import (
	"bufio"
	"bytes"
	"errors"
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

	"incidentlib/internal/repotest"
)

// mainEnv makes the test binary run the command with the arguments it
// holds (one a line), so that a test can signal a real build.
const mainEnv = "INCIDENTLIB_TEST_MAIN"

func TestMain(m *testing.M) {
	if args := os.Getenv(mainEnv); args != "" {
		limitFiles()
		os.Exit(run(strings.Split(args, "\n"), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// child is a build in a process of its own, held between writing its files
// and swapping them in: its -memprofile is a named pipe that nobody reads
// yet, so opening it waits.
type child struct {
	cmd    *exec.Cmd
	pipe   string
	mu     sync.Mutex
	stderr bytes.Buffer
	lines  chan string
}

func startChild(t *testing.T, content, out string) *child {
	t.Helper()
	c := &child{pipe: filepath.Join(t.TempDir(), "heap"), lines: make(chan string, 100)}
	if err := syscall.Mkfifo(c.pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"build", "-content", content, "-out", out, "-memprofile", c.pipe}
	c.cmd = exec.Command(os.Args[0], "-test.run=^$")
	c.cmd.Env = append(os.Environ(), mainEnv+"="+strings.Join(args, "\n"))
	r, err := c.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			c.mu.Lock()
			c.stderr.WriteString(sc.Text() + "\n")
			c.mu.Unlock()
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() { c.cmd.Process.Kill() })
	// Wait until every file is written: the build then opens the pipe.
	tmp := filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".build-")
	deadline := time.Now().Add(10 * time.Minute) // a loaded machine's build, with room
	for {
		m, _ := filepath.Glob(tmp + "*/en/index.html")
		if len(m) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the build never wrote its pages:\n%s", c.output())
		}
		time.Sleep(20 * time.Millisecond)
	}
	// The pages are written, but the downloads may still be streaming: a
	// signal now would end the build of its own accord. Wait until it
	// opens the pipe, where the kernel shows it waiting for a reader.
	for !openingPipe(c.cmd.Process.Pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the build never opened its profile pipe:\n%s", c.output())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return c
}

// openingPipe reports whether a thread of the process waits in the kernel
// to open a named pipe, as /proc/PID/task/*/wchan says. Where the kernel
// hides wait channels (every one reads "0"), it cannot tell, and reports
// true: the wait for the pages above is then all there is.
func openingPipe(pid int) bool {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/wchan", pid))
	shown := false
	for _, f := range tasks {
		b, err := os.ReadFile(f)
		w := strings.TrimSpace(string(b))
		if err != nil || w == "" || w == "0" {
			continue
		}
		shown = true
		if strings.Contains(w, "partner") || strings.Contains(w, "fifo") {
			return true
		}
	}
	return !shown
}

func (c *child) output() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stderr.String()
}

// waitLine waits for a line of standard error that holds s.
func (c *child) waitLine(t *testing.T, s string) {
	t.Helper()
	timeout := time.After(5 * time.Minute) // a hang, not a slow machine
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				t.Fatalf("no line with %q:\n%s", s, c.output())
			}
			if strings.Contains(l, s) {
				return
			}
		case <-timeout:
			t.Fatalf("no line with %q in 5 minutes:\n%s", s, c.output())
		}
	}
}

// release lets the held build go on: a reader opens the pipe and drains it.
func (c *child) release(t *testing.T) {
	f, err := os.OpenFile(c.pipe, os.O_RDWR, 0) // never waits for a writer
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, f)
	t.Cleanup(func() { f.Close() })
}

func (c *child) exitCode(t *testing.T) int {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		// Read standard error to its end before Wait, which closes the
		// pipe: a last line not yet read would be lost, and on a busy
		// machine that was the "interrupted" the tests look for.
		for range c.lines {
		}
		done <- c.cmd.Wait()
	}()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(10 * time.Minute):
		t.Fatalf("the build did not end:\n%s", c.output())
	}
	return -1
}

func temps(t *testing.T, out string) []string {
	m, _ := filepath.Glob(filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".build-*"))
	return m
}

func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		m[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestInterrupt: Ctrl-C (SIGINT) during a build stops it with status 130,
// removes the temporary folder at once and leaves the previous output as
// it was; so do SIGTERM and SIGHUP (the terminal or SSH session closed).
func TestInterrupt(t *testing.T) {
	content := repotest.ContentDir(t)
	out := filepath.Join(t.TempDir(), "public")
	var so, se bytes.Buffer
	if code := run([]string{"build", "-content", content, "-out", out}, &so, &se); code != 0 {
		t.Fatalf("first build: %d\n%s", code, se.String())
	}
	before := readTree(t, out)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		c := startChild(t, content, out)
		c.cmd.Process.Signal(sig)
		c.waitLine(t, "stopping")
		c.release(t)
		if code := c.exitCode(t); code != 130 {
			t.Errorf("%v: exit status %d, want 130:\n%s", sig, code, c.output())
		}
		if !strings.Contains(c.output(), "interrupted") {
			t.Errorf("%v: the build did not say it was interrupted:\n%s", sig, c.output())
		}
		if left := temps(t, out); len(left) > 0 {
			t.Errorf("%v: left behind %v", sig, left)
		}
		after := readTree(t, out)
		if len(after) != len(before) {
			t.Errorf("%v: the previous output changed: %d files, was %d", sig, len(after), len(before))
		}
		for p, b := range before {
			if after[p] != b {
				t.Errorf("%v: %s changed", sig, p)
			}
		}
	}
}

// TestSecondInterrupt: a second Ctrl-C ends the build at once, even while
// it waits; what it leaves is removed by the next build.
func TestSecondInterrupt(t *testing.T) {
	content := repotest.ContentDir(t)
	out := filepath.Join(t.TempDir(), "public")
	c := startChild(t, content, out)
	c.cmd.Process.Signal(syscall.SIGINT)
	c.waitLine(t, "stopping")
	c.cmd.Process.Signal(syscall.SIGINT)
	if code := c.exitCode(t); code != 130 {
		t.Errorf("exit status %d, want 130:\n%s", code, c.output())
	}
	if left := temps(t, out); len(left) != 1 {
		t.Fatalf("left %v, want the held build's temporary folder", left)
	}
	var so, se bytes.Buffer
	if code := run([]string{"build", "-content", content, "-out", out}, &so, &se); code != 0 {
		t.Fatalf("next build: %d\n%s", code, se.String())
	}
	if left := temps(t, out); len(left) > 0 {
		t.Errorf("the next build left %v", left)
	}
}
