package webtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
)

// HTMLValidate checks every .html file under dir with html-validate
// (node_modules/.bin/html-validate) and the repository's .htmlvalidate.json,
// and returns its errors as "path:line:column: rule: message", path relative
// to dir. It looks for what the Nu checker does not: ARIA misuse, duplicate
// ids, unlabelled controls and the like. The configuration turns off two
// rules of style: a lower-case doctype is as valid as an upper-case one, and
// case titles are whole sentences, longer than a search engine shows.
func HTMLValidate(t testing.TB, dir string) []string {
	t.Helper()
	bin := tool(t, "node_modules/.bin/html-validate", "html-validate")
	config := tool(t, ".htmlvalidate.json", "html-validate's configuration")
	dir = absDir(t, dir)
	cmd := exec.Command(bin, "-c", config, "-f", "json", filepath.ToSlash(dir)+"/**/*.html")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	// It exits 1 when it found errors; a report that does not parse, or a
	// failure without one, is the tool failing.
	var rep []struct {
		FilePath string `json:"filePath"`
		Messages []struct {
			RuleID  string `json:"ruleId"`
			Message string `json:"message"`
			Line    int    `json:"line"`
			Column  int    `json:"column"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("html-validate: %v (exit: %v); stdout:\n%s\nstderr:\n%s", err, runErr, clip(stdout.Bytes()), clip(stderr.Bytes()))
	}
	var out []string
	for _, f := range rep {
		file := f.FilePath
		if rel, err := filepath.Rel(dir, file); err == nil {
			file = filepath.ToSlash(rel)
		}
		for _, m := range f.Messages {
			out = append(out, fmt.Sprintf("%s:%d:%d: %s: %s", file, m.Line, m.Column, m.RuleID, m.Message))
		}
	}
	if runErr != nil && len(out) == 0 {
		t.Fatalf("html-validate failed without reporting a problem: %v\nstderr:\n%s", runErr, clip(stderr.Bytes()))
	}
	sort.Strings(out)
	return out
}
