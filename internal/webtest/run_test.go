package webtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// fakeTool writes an executable shell script standing in for a checker.
func fakeTool(t *testing.T, script string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fake-tool")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// wantAll fails unless msg contains every part.
func wantAll(t *testing.T, msg string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(msg, p) {
			t.Errorf("the message lacks %q:\n%s", p, msg)
		}
	}
}

// TestRunToolHangs: a checker that never ends is killed at its own
// deadline, with its helpers, and the message says so, with what it
// printed last.
func TestRunToolHangs(t *testing.T) {
	t.Parallel()
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	// The script starts a helper that holds stdout open, as node's child
	// processes can: the deadline must end it too, and Run must return.
	bin := fakeTool(t, `
for i in 1 2 3 4 5; do echo "checked page $i"; done
echo "crawling the site" >&2
sleep 300 &
echo $! > `+pidFile+`
wait
`)
	tl := Tool{Name: "linkinator", Path: bin, Runtime: "node", Timeout: time.Second, Report: []int{1}}
	start := time.Now()
	_, err := runTool(context.Background(), tl)
	if took := time.Since(start); took > time.Minute {
		t.Errorf("runTool returned after %v, long after its 1s deadline", took)
	}
	var te *ToolError
	if !errors.As(err, &te) || !te.TimedOut {
		t.Fatalf("err = %v, want a *ToolError that timed out", err)
	}
	wantAll(t, err.Error(), "linkinator did not finish within its deadline of 1s and was killed (signal: killed)",
		"last lines on stdout:\n  checked page 1\n", "checked page 5", "last lines on stderr:\n  crawling the site", "command: "+bin)
	// The helper went with the tool's process group.
	if b, err := os.ReadFile(pidFile); err == nil {
		pid := strings.TrimSpace(string(b))
		deadline := time.Now().Add(2 * time.Minute)
		for {
			st, err := os.ReadFile("/proc/" + pid + "/stat")
			if err != nil || strings.Contains(string(st), ") Z ") {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("the tool's helper (pid %s) still runs after the deadline", pid)
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// TestRunToolDies: a checker that exits with a status that is not a
// report fails with the status, what it means and its last lines, never
// with "unexpected end of JSON input".
func TestRunToolDies(t *testing.T) {
	t.Parallel()
	bin := fakeTool(t, `
i=0; while [ $i -lt 40 ]; do echo "line $i"; i=$((i+1)); done
echo "Warning: Detected unsettled top-level await at file:///cli.js:534" >&2
exit 13
`)
	tl := Tool{Name: "linkinator", Path: bin, Runtime: "node", Timeout: time.Minute, Report: []int{1}}
	_, err := runTool(context.Background(), tl)
	var te *ToolError
	if !errors.As(err, &te) || te.Exit != 13 {
		t.Fatalf("err = %v, want a *ToolError with exit status 13", err)
	}
	msg := err.Error()
	wantAll(t, msg, "linkinator failed with exit status 13 after ", "unsettled top-level await",
		"(25 lines before)", "line 25\n", "line 39", "Detected unsettled top-level await at file:///cli.js:534")
	if strings.Contains(msg, "line 24\n") {
		t.Errorf("the message quotes more than the last %d lines:\n%s", tailLines, msg)
	}

	// Exit 1 is linkinator's report of broken links, not a failure.
	ok := fakeTool(t, "echo '{\"passed\": false}'; exit 1\n")
	res, err := runTool(context.Background(), Tool{Name: "linkinator", Path: ok, Runtime: "node", Timeout: time.Minute, Report: []int{1}})
	if err != nil || res.Exit != 1 || !strings.Contains(string(res.Stdout), "passed") {
		t.Errorf("a report with status 1: %+v, %v", res, err)
	}

	// A signal from outside is told apart from the deadline.
	killed := fakeTool(t, "echo starting; kill -KILL $$\n")
	_, err = runTool(context.Background(), Tool{Name: "vnu", Path: killed, Runtime: "java", Timeout: time.Minute})
	wantAll(t, err.Error(), "vnu was ended by a signal (killed)", "out-of-memory killer", "starting")

	// No deadline is no run.
	if _, err := runTool(context.Background(), Tool{Name: "node", Path: ok}); err == nil || !strings.Contains(err.Error(), "Timeout not set") {
		t.Errorf("a tool without a deadline ran: %v", err)
	}
}

// TestLinksToolFailure: Links over a linkinator that dies says so, with
// linkinator's status and output, and one whose output is no report says
// that, quoting it.
func TestLinksToolFailure(t *testing.T) {
	old := linkinatorBin
	t.Cleanup(func() { linkinatorBin = old })
	for _, tc := range []struct {
		script string
		want   []string
	}{
		{"echo crawling >&2; exit 13\n", []string{"linkinator failed with exit status 13", "unsettled top-level await", "crawling"}},
		{"printf '{\"links\": ['; exit 0\n", []string{"linkinator exited with status 0 after", "report cannot be read: unexpected end of JSON input", `{"links": [`}},
	} {
		linkinatorBin = fakeTool(t, tc.script)
		msg := fatalMessage(t, func(tb testing.TB) { Links(tb, "testdata/good") })
		wantAll(t, msg, tc.want...)
	}
}

// fatalMessage runs f with a testing.TB whose Fatal records the message
// and ends f, and returns the message.
func fatalMessage(t *testing.T, f func(testing.TB)) string {
	t.Helper()
	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(rec)
	}()
	<-done
	if rec.msg == "" {
		t.Fatal("no Fatal")
	}
	return rec.msg
}

// recorder is a testing.TB whose Fatal records its message and ends the
// goroutine, as the real one does; everything else is the test's.
type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Fatal(args ...any) {
	r.msg = strings.TrimSuffix(fmt.Sprintln(args...), "\n")
	runtime.Goexit()
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Helper() {}

func TestStrict(t *testing.T) {
	for _, tc := range []struct {
		ci, require string
		want        bool
	}{{"", "", false}, {"true", "", true}, {"false", "", false}, {"", "1", true}, {"1", "", true}} {
		t.Setenv("CI", tc.ci)
		t.Setenv("INCIDENTLIB_REQUIRE_TOOLS", tc.require)
		if got := strict(); got != tc.want {
			t.Errorf("CI=%q INCIDENTLIB_REQUIRE_TOOLS=%q: strict() = %v", tc.ci, tc.require, got)
		}
	}
}
