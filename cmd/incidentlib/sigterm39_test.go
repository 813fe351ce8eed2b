//go:build unix

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"incidentlib/internal/gencases"
)

// TestSigtermSlowBuild (#39): SIGTERM in the middle of a slow build (2,000
// cases whose summaries are Markdown's worst shapes, unclosed link openers
// by the thousand) stops it promptly: status 130, no output folder, no
// temporary folder. Prompt is judged against the same build left to run:
// the stop must take well under half of it (on a quiet machine it takes a
// fraction of a second, the build tens of seconds); the figures are
// logged.
func TestSigtermSlowBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 2,000 hostile cases twice")
	}
	content := filepath.Join(t.TempDir(), "content")
	if err := gencases.WriteDir(content, gencases.Options{N: 2000, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	worst := strings.Repeat("[a]( ![a]( [](", 300) // about 4 kB of openers that never close
	files, _ := filepath.Glob(filepath.Join(content, "cases", "*.json"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c map[string]any
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatal(err)
		}
		if s, ok := c["summary"].(map[string]any); ok {
			for lang, v := range s {
				s[lang] = v.(string) + " " + worst
			}
		}
		out, _ := json.Marshal(c)
		if err := os.WriteFile(f, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	build := func(out string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), mainEnv+"="+strings.Join([]string{"build", "-content", content, "-out", out}, "\n"))
		return cmd
	}
	dir := t.TempDir()
	full := filepath.Join(dir, "full")
	t0 := time.Now()
	if b, err := build(full).CombinedOutput(); err != nil {
		t.Fatalf("the whole build: %v\n%.2000s", err, b)
	}
	whole := time.Since(t0)

	out := filepath.Join(dir, "public")
	cmd := build(out)
	var stderr syncBuffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until case pages are being written, then stop the build.
	tmp := filepath.Join(dir, ".public.build-*")
	for deadline := time.Now().Add(whole + time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if m, _ := filepath.Glob(filepath.Join(tmp, "en", "cases", "*", "index.html")); len(m) > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no case page was written:\n%s", stderr.String())
		}
	}
	signalled := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	stopped := time.Since(signalled)
	t.Logf("the whole build took %v; SIGTERM stopped it in %v", whole.Round(time.Millisecond), stopped.Round(time.Millisecond))
	code := -1
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	if code != 130 {
		t.Errorf("exit status %d (%v), want 130:\n%s", code, err, stderr.String())
	}
	if stopped > whole/2 {
		t.Errorf("SIGTERM took %v to stop a build that takes %v whole", stopped, whole)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the stopped build left %s (%v)", out, err)
	}
	if m, _ := filepath.Glob(tmp); len(m) > 0 {
		t.Errorf("the stopped build left %v", m)
	}
}
