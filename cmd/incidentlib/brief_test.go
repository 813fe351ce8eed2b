package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"incidentlib/internal/diag"
	"incidentlib/internal/repotest"
)

// TestBuildWarningsBrief: a build with hundreds of warnings prints the first
// 20 and the others counted by kind, and check prints them (20 per file, as
// it always has); both count the same warnings.
func TestBuildWarningsBrief(t *testing.T) {
	dir := repotest.CopyDir(t, "content")
	files, _ := filepath.Glob(filepath.Join(dir, "cases", "*.json"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// Every object particle written apart: a particle warning each.
		os.WriteFile(f, []byte(strings.ReplaceAll(string(b), "를 ", " 를 ")), 0o644)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "-content", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("check: exit %d\n%s", code, stderr.String())
	}
	m := regexp.MustCompile(`no errors, (\d+) warnings`).FindStringSubmatch(stdout.String())
	if m == nil {
		t.Fatalf("check does not count the warnings:\n%s", stdout.String())
	}
	total, _ := strconv.Atoi(m[1])
	if total < 100 {
		t.Fatalf("only %d warnings: the test needs many", total)
	}
	checked := strings.Count(stderr.String(), "particle written apart from the word")
	if checked <= diag.ShownWarnings {
		t.Errorf("check printed %d warnings, want them all (%d, at most 20 a file)", checked, total)
	}

	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"build", "-content", dir, "-out", filepath.Join(t.TempDir(), "out")}, &stdout, &stderr); code != 0 {
		t.Fatalf("build: exit %d\n%s", code, stderr.String())
	}
	out := stderr.String()
	if n := strings.Count(out, "particle written apart from the word"); n != diag.ShownWarnings {
		t.Errorf("build printed %d warnings, want %d:\n%s", n, diag.ShownWarnings, out)
	}
	want := "and " + diag.Thousands(total-diag.ShownWarnings) + " more: " + diag.Thousands(total-diag.ShownWarnings) + " particle; run incidentlib check for all"
	if !strings.Contains(out, want) {
		t.Errorf("build does not end its warnings with %q:\n%s", want, out)
	}
	if lines := strings.Count(out, "\n"); lines > 4*diag.ShownWarnings+10 {
		t.Errorf("build printed %d lines for %d warnings", lines, total)
	}
}
