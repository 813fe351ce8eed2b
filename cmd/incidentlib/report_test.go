package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidentlib/internal/diag"
	"incidentlib/internal/repotest"
)

// manyProblems writes a content folder whose one case file, a single line,
// has n problems of one kind: unknown keys, or unknown terms.
func manyProblems(t testing.TB, n int, kind string) string {
	t.Helper()
	dir := t.TempDir()
	src := repotest.Dir(t, "content")
	for _, name := range []string{"site.json", "vocab.json"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	b, err := os.ReadFile(filepath.Join(src, "cases", "IL-0495.json"))
	if err != nil {
		t.Fatal(err)
	}
	var extra strings.Builder
	for i := 0; i < n; i++ {
		if kind == "keys" {
			fmt.Fprintf(&extra, `"unknown%06d":1,`, i)
		} else {
			fmt.Fprintf(&extra, `"term%06d",`, i)
		}
	}
	c := string(b)
	if kind == "keys" {
		c = "{" + extra.String() + c[1:]
	} else {
		c = strings.Replace(c, `"components":["ingress"`, `"components":[`+extra.String()+`"ingress"`, 1)
	}
	os.Mkdir(filepath.Join(dir, "cases"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "cases", "IL-0495.json"), []byte(c), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestManyProblems checks a one-line case file of about 1.3 MB with 100,000
// unknown keys, and one with 100,000 unknown terms. Reporting was quadratic
// in the problems (every column and every excerpt counted from the start of
// the line; keys and terms were compared pairwise), which took hours; it is
// linear now, and the test finishes in seconds. The report shows the first
// problems in full and counts the rest (the list keeps diag.MaxKept).
// With -short, 20,000 problems: quadratic reporting would still take
// minutes.
func TestManyProblems(t *testing.T) {
	n := 100000
	if testing.Short() {
		n = 20000
	}
	for _, kind := range []string{"keys", "terms"} {
		dir := manyProblems(t, n, kind)
		var stdout, stderr bytes.Buffer
		if code := run([]string{"check", "-content", dir}, &stdout, &stderr); code != 1 {
			t.Fatalf("%s: exit %d, want 1", kind, code)
		}
		out := stderr.String()
		first := `cases/IL-0495.json:1:2: unknown000000: unknown field`
		if kind == "terms" {
			first = `cases/IL-0495.json:1:`
		}
		for _, want := range []string{first, "cases/IL-0495.json: and 980 more problems", fmt.Sprintf("… and %d more problems, not shown", n-diag.MaxKept), fmt.Sprintf("incidentlib check: %d errors", n)} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: report lacks %q:\n%s", kind, want, out[max(0, len(out)-800):])
			}
		}
		if kind == "terms" && !strings.Contains(out, `components[19]: unknown term "term000019"`) {
			t.Errorf("terms: the 20th problem is not shown in full:\n%.3000s", out)
		}
		if lines := strings.Count(out, "\n"); lines > 3*diag.ShownPerFile+3 {
			t.Errorf("%s: %d lines of report", kind, lines)
		}
	}
}

// BenchmarkReport checks and reports files with 10,000 and 100,000
// problems: the time per run grows about tenfold, not a hundredfold.
func BenchmarkReport(b *testing.B) {
	for _, kind := range []string{"keys", "terms"} {
		for _, n := range []int{10000, 100000} {
			b.Run(fmt.Sprintf("%s=%d", kind, n), func(b *testing.B) {
				dir := manyProblems(b, n, kind)
				b.ResetTimer()
				for range b.N {
					if code := run([]string{"check", "-content", dir}, io.Discard, io.Discard); code != 1 {
						b.Fatalf("exit %d", code)
					}
				}
			})
		}
	}
}
