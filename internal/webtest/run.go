package webtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Tool is one run of an external checker: linkinator, the Nu checker,
// html-validate, node. Every checker runs through runTool, so that each has
// a deadline of its own and fails with the same kind of message.
type Tool struct {
	// Name is the tool as people know it ("linkinator"); it starts every
	// message about the run.
	Name string
	// Path and Args are the command; Dir its working folder.
	Path string
	Args []string
	Dir  string
	// Runtime says what runs the tool, "node" or "java", so that an exit
	// status can be explained in its terms (node's 13 is an unsettled
	// top-level await, java's 1 anything).
	Runtime string
	// Timeout is the whole run's deadline. It must be shorter than go
	// test's -timeout, so that a hung tool is named here rather than in a
	// dump of every goroutine.
	Timeout time.Duration
	// Report lists the exit statuses with which the tool reports findings
	// rather than failing (1 for most checkers). Exit 0 is always fine.
	Report []int
}

// ToolResult is what a finished tool printed.
type ToolResult struct {
	Stdout, Stderr []byte
	// Exit is the exit status, 0 or one of Tool.Report.
	Exit    int
	Elapsed time.Duration
}

// ToolError is a tool that did not finish, or finished with a status that
// is not a report. Its message names the tool, says how it ended and what
// that means, and quotes the last lines it printed.
type ToolError struct {
	Tool    Tool
	Elapsed time.Duration
	// TimedOut: killed at the tool's deadline.
	TimedOut bool
	// Exit is the exit status, or -1 when a signal ended the process.
	Exit   int
	Signal string
	// Err is an error starting or waiting for the process.
	Err            error
	Stdout, Stderr []byte
}

func (e *ToolError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s ", e.Tool.Name)
	switch {
	case e.TimedOut:
		fmt.Fprintf(&b, "did not finish within its deadline of %v and was killed (signal: killed)", e.Tool.Timeout)
	case e.Signal != "":
		fmt.Fprintf(&b, "was ended by a signal (%s) after %v: %s", e.Signal, e.Elapsed.Round(time.Millisecond), signalMeaning(e.Signal))
	case e.Exit >= 0 && e.Err == nil:
		fmt.Fprintf(&b, "failed with exit status %d after %v: %s", e.Exit, e.Elapsed.Round(time.Millisecond), exitMeaning(e.Tool.Runtime, e.Exit))
	default:
		fmt.Fprintf(&b, "could not run: %v", e.Err)
	}
	fmt.Fprintf(&b, "\ncommand: %s", commandLine(e.Tool))
	fmt.Fprintf(&b, "\nlast lines on stdout:\n%s", lastLines(e.Stdout, tailLines))
	fmt.Fprintf(&b, "\nlast lines on stderr:\n%s", lastLines(e.Stderr, tailLines))
	return b.String()
}

// tailLines is how many lines of each stream a ToolError quotes.
const tailLines = 15

// exitMeaning explains an exit status in the terms of the tool's runtime.
func exitMeaning(runtime string, code int) string {
	switch code {
	case 126:
		return "the command is not executable"
	case 127:
		return "the command was not found"
	}
	if runtime == "node" {
		switch code {
		case 1:
			return "node: an uncaught exception or error (the tool crashed, or gave up; see stderr)"
		case 9:
			return "node: invalid argument"
		case 13:
			return "node: unsettled top-level await: the tool's main promise never settled and nothing was left for node to wait on, so its work stalled and it printed no report"
		case 134:
			return "node: aborted, often out of memory (JavaScript heap out of memory)"
		}
	}
	if runtime == "java" && code == 1 {
		return "java: the program failed or the JVM could not start (see stderr)"
	}
	if code > 128 {
		return fmt.Sprintf("ended by signal %d", code-128)
	}
	return "the tool failed (see stderr)"
}

func signalMeaning(sig string) string {
	switch sig {
	case "killed":
		return "killed from outside, not at its deadline: the kernel's out-of-memory killer or a person"
	case "aborted":
		return "the tool aborted itself, often out of memory"
	case "segmentation fault":
		return "the tool crashed"
	case "terminated", "interrupt":
		return "stopped from outside (the test run interrupted?)"
	}
	return "ended from outside or crashed"
}

func commandLine(tl Tool) string {
	parts := append([]string{tl.Path}, tl.Args...)
	s := strings.Join(parts, " ")
	const max = 600
	if len(s) > max {
		s = fmt.Sprintf("%s… (%d arguments)", s[:max], len(tl.Args))
	}
	return s
}

// lastLines returns the last n lines of b, each line cut to a sane width,
// indented, or "(empty)".
func lastLines(b []byte, n int) string {
	s := strings.TrimRight(string(b), "\n")
	if strings.TrimSpace(s) == "" {
		return "  (empty)"
	}
	lines := strings.Split(s, "\n")
	skipped := 0
	if len(lines) > n {
		skipped = len(lines) - n
		lines = lines[skipped:]
	}
	var out strings.Builder
	if skipped > 0 {
		fmt.Fprintf(&out, "  … (%d lines before)\n", skipped)
	}
	for i, l := range lines {
		const width = 400
		if len(l) > width {
			l = l[:width] + fmt.Sprintf("… (%d more bytes)", len(l)-width)
		}
		out.WriteString("  " + l)
		if i < len(lines)-1 {
			out.WriteByte('\n')
		}
	}
	return out.String()
}

// runTool runs tl to its end or its deadline. A status of 0 or one of
// tl.Report gives a result; anything else, a killed process or a deadline
// gives a *ToolError. On the deadline the tool's whole process group is
// killed, so that nothing it started lives on.
func runTool(ctx context.Context, tl Tool) (ToolResult, error) {
	if tl.Timeout <= 0 {
		return ToolResult{}, &ToolError{Tool: tl, Exit: -1, Err: errors.New("webtest: Tool.Timeout not set: every checker needs a deadline")}
	}
	ctx, cancel := context.WithTimeout(ctx, tl.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, tl.Path, tl.Args...)
	cmd.Dir = tl.Dir
	cmd.Env = os.Environ()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	setGroup(cmd)
	// A child that keeps the pipes open must not keep Wait waiting.
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	res := ToolResult{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), Elapsed: time.Since(start)}
	fail := &ToolError{Tool: tl, Elapsed: res.Elapsed, Exit: -1, Stdout: res.Stdout, Stderr: res.Stderr}
	if ctx.Err() == context.DeadlineExceeded {
		fail.TimedOut = true
		return res, fail
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			fail.Signal = ws.Signal().String()
			return res, fail
		}
		res.Exit = exit.ExitCode()
		for _, ok := range tl.Report {
			if res.Exit == ok {
				return res, nil
			}
		}
		fail.Exit = res.Exit
		return res, fail
	}
	if err != nil {
		fail.Err = err
		return res, fail
	}
	return res, nil
}

// Run is runTool for a test: a tool that fails fails the test with the
// ToolError's message.
func Run(t testing.TB, tl Tool) ToolResult {
	t.Helper()
	res, err := runTool(context.Background(), tl)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// BadReport fails the test for a tool that ended well but printed a report
// that cannot be read: it quotes the tool's last lines, like a ToolError.
func BadReport(t testing.TB, tl Tool, res ToolResult, err error) {
	t.Helper()
	t.Fatalf("%s exited with status %d after %v but its report cannot be read: %v\ncommand: %s\nlast lines on stdout:\n%s\nlast lines on stderr:\n%s",
		tl.Name, res.Exit, res.Elapsed.Round(time.Millisecond), err, commandLine(tl), lastLines(res.Stdout, tailLines), lastLines(res.Stderr, tailLines))
}
