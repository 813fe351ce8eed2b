package webtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

type vnuReport struct {
	Messages []struct {
		Type        string `json:"type"`
		SubType     string `json:"subType"`
		URL         string `json:"url"`
		LastLine    int    `json:"lastLine"`
		FirstColumn int    `json:"firstColumn"`
		LastColumn  int    `json:"lastColumn"`
		Message     string `json:"message"`
		Extract     string `json:"extract"`
	} `json:"messages"`
}

// VNU checks every .html file under dir with the Nu HTML checker
// (node_modules/vnu-jar/build/dist/vnu.jar, run by the system Java) and
// returns its errors as "path:line:column: message [extract]", path relative
// to dir. One JVM checks the whole folder, because it takes seconds to start.
func VNU(t testing.TB, dir string) []string {
	t.Helper()
	jar := tool(t, "node_modules/vnu-jar/build/dist/vnu.jar", "the Nu HTML checker (vnu-jar)")
	dir = absDir(t, dir)
	if _, err := exec.LookPath("java"); err != nil {
		t.Fatalf("java is not on PATH: %v; run `make test` (scripts/test-deps.sh installs it)", err)
	}
	// --stdout puts the JSON report on stdout, so that anything Java itself
	// prints on stderr cannot corrupt it.
	cmd := exec.Command("java", "-jar", jar, "--errors-only", "--skip-non-html", "--format", "json", "--stdout", dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	// vnu exits 1 when it found errors, so the exit status alone is no
	// failure of the tool; an unreadable report is.
	var rep vnuReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("vnu: %v (exit: %v); stdout:\n%s\nstderr:\n%s", err, runErr, clip(stdout.Bytes()), clip(stderr.Bytes()))
	}
	if runErr != nil && len(rep.Messages) == 0 {
		t.Fatalf("vnu failed without reporting a message: %v\nstderr:\n%s", runErr, clip(stderr.Bytes()))
	}
	var out []string
	for _, m := range rep.Messages {
		if m.Type == "info" {
			continue
		}
		file := strings.TrimPrefix(m.URL, "file:")
		if rel, err := filepath.Rel(dir, file); err == nil {
			file = filepath.ToSlash(rel)
		}
		col := m.FirstColumn
		if col == 0 {
			col = m.LastColumn
		}
		kind := ""
		if m.Type != "error" {
			kind = m.Type + ": "
		}
		out = append(out, fmt.Sprintf("%s:%d:%d: %s%s [%s]", file, m.LastLine, col, kind, m.Message, strings.Join(strings.Fields(m.Extract), " ")))
	}
	sort.Strings(out)
	return out
}
