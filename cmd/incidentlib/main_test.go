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

// oneCaseContent writes a content folder with the shipped site.json and
// vocab.json and one case, IL-0495, in which from is replaced by to, and
// returns the folder.
func oneCaseContent(t *testing.T, from, to string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"site.json", "vocab.json"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "content", name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	os.Mkdir(filepath.Join(dir, "cases"), 0o755)
	b, err := os.ReadFile(filepath.Join("..", "..", "content", "cases", "IL-0495.json"))
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), from, to, 1)
	if edited == string(b) {
		t.Fatalf("IL-0495 no longer holds %s: update the test", from)
	}
	os.WriteFile(filepath.Join(dir, "cases", "IL-0495.json"), []byte(edited), 0o644)
	return dir
}

// TestCheckReport runs the check command on broken content and reads what a
// user reads: every problem with its position, an excerpt and a caret.
func TestCheckReport(t *testing.T) {
	dir := oneCaseContent(t, `"components":["ingress"`, `"components":["ingres"`)
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

// TestCheckStrict checks that a warning passes a plain check and fails a
// strict one, which is what CI runs on the shipped content.
func TestCheckStrict(t *testing.T) {
	dir := oneCaseContent(t, `"ko":"쿠버네티스에서 도는 내부 로드 밸런서 일부가 헬스 체크 실패로 한꺼번에 내려가고 남은 인스턴스가 연결 폭증으로 무너졌다"`, `"ko":""`)
	for _, tt := range []struct {
		args []string
		code int
	}{
		{[]string{"check", "-content", dir}, 0},
		{[]string{"check", "-strict", "-content", dir}, 1},
	} {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, &stdout, &stderr)
		if code != tt.code {
			t.Errorf("%v: exit %d, want %d\n%s", tt.args, code, tt.code, stderr.String())
		}
		if !strings.Contains(stderr.String(), "title.ko: Korean translation missing") {
			t.Errorf("%v: the warning is not reported:\n%s", tt.args, stderr.String())
		}
		if tt.code == 1 && !strings.Contains(stderr.String(), "0 errors, 1 warning") {
			t.Errorf("%v: no summary of the failure:\n%s", tt.args, stderr.String())
		}
	}
}
