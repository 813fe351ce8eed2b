package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBusyPort: serve and mcp name a port that another program holds and
// say how to choose another, by flag and by the Makefile's variable.
func TestBusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "-addr", addr}, "make serve ADDR="},
		{[]string{"mcp", "-addr", addr}, "make mcp MCP_ADDR="},
		{[]string{"mcp", "-http", addr}, "make mcp MCP_ADDR="},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tt.args, &stdout, &stderr); code != 1 {
			t.Errorf("%v: exit %d, want 1", tt.args, code)
		}
		for _, w := range []string{addr + " is in use", "-addr 127.0.0.1:", tt.want} {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("%v: message lacks %q:\n%s", tt.args, w, stderr.String())
			}
		}
	}
}

// TestCommandLine: version in both spellings, -h on every command and help
// on every topic exit 0 with their text on the way.
func TestCommandLine(t *testing.T) {
	cmds := []string{"build", "check", "serve", "new", "mcp"}
	var cases [][]string
	for _, c := range cmds {
		cases = append(cases, []string{c, "-h"}, []string{c, "--help"}, []string{"help", c})
	}
	cases = append(cases, []string{"help"}, []string{"-h"}, []string{"help", "help"}, []string{"help", "version"},
		[]string{"version"}, []string{"-version"}, []string{"--version"})
	for _, args := range cases {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		out := stdout.String() + stderr.String()
		if code != 0 || out == "" {
			t.Errorf("%v: exit %d, want 0 with text\n%s", args, code, out)
		}
		if args[len(args)-1] != "-h" && args[len(args)-1] != "--help" && len(args) == 2 && !strings.Contains(out, "Usage: incidentlib "+args[1]) {
			t.Errorf("%v: no usage of %s:\n%s", args, args[1], out)
		}
		if strings.Contains(args[0], "version") && !strings.HasPrefix(stdout.String(), "incidentlib ") || strings.Contains(args[0], "version") && !strings.Contains(stdout.String(), " go1.") {
			t.Errorf("%v: %q", args, stdout.String())
		}
	}
	for _, args := range [][]string{{"build", "-nonsense"}, {"help", "nonsense"}, {"nonsense"}, {"version", "extra"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestCheckFiles: check FILE reports that file's problems only, whatever
// the others hold, and a file outside the content folder is refused.
func TestCheckFiles(t *testing.T) {
	dir := oneCaseContent(t, `"components":["ingress"`, `"components":["ingres"`)
	var stdout, stderr bytes.Buffer
	// The broken case, named three ways.
	for _, f := range []string{filepath.Join(dir, "cases", "IL-0495.json"), "cases/IL-0495.json"} {
		stderr.Reset()
		if code := run([]string{"check", "-content", dir, f}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), `unknown term "ingres"`) {
			t.Errorf("check %s: exit %d\n%s", f, code, stderr.String())
		}
	}
	// Another file of the same library is clean.
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"check", filepath.Join(dir, "site.json"), "-content", dir}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "1 file: no errors") {
		t.Errorf("check site.json: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	stderr.Reset()
	outside := filepath.Join(t.TempDir(), "x.json")
	os.WriteFile(outside, []byte("{}"), 0o644)
	if code := run([]string{"check", "-content", dir, outside}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "is not in the content folder") {
		t.Errorf("check of a file outside: exit %d\n%s", code, stderr.String())
	}
}
