package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClip(t *testing.T) {
	tests := []struct {
		line       string
		col, width int
		want       string
		caret      int
	}{
		{`{"a": "b"}`, 6, 36, `{"a": "b"}`, 6},
		{strings.Repeat("x", 100) + `"bad"` + strings.Repeat("y", 100), 100, 5, `…xxxxx"bad"…`, 6},
		{`"가나": 1`, 6, 36, `"가나": 1`, 8}, // two wide characters before the column
	}
	for _, tt := range tests {
		got, caret := clip(tt.line, tt.col, tt.width)
		if got != tt.want || caret != tt.caret {
			t.Errorf("clip(%q, %d) = %q, %d; want %q, %d", tt.line, tt.col, got, caret, tt.want, tt.caret)
		}
	}
}

// TestCheckReport runs the check command on broken content and reads what a
// user reads: every problem with its position, an excerpt and a caret.
func TestCheckReport(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"site.json", "vocab.json"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "content", name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	os.Mkdir(filepath.Join(dir, "cases"), 0o755)
	b, _ := os.ReadFile(filepath.Join("..", "..", "content", "cases", "IL-0495.json"))
	bad := strings.Replace(string(b), `"components":["ingress"`, `"components":["ingres"`, 1)
	os.WriteFile(filepath.Join(dir, "cases", "IL-0495.json"), []byte(bad), 0o644)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "-content", dir}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr.String())
	}
	out := stderr.String()
	for _, want := range []string{`cases/IL-0495.json:1:`, `components[0]: unknown term "ingres" (did you mean "ingress"?)`, `"components":["ingres"`, "^", "1 error, 0 warnings"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"help", "build"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "-offline") {
		t.Errorf("help build: %d\n%s", code, stdout.String())
	}
	if code := run([]string{"nonsense"}, &stdout, &stderr); code != 2 {
		t.Errorf("unknown command exit %d", code)
	}
}
