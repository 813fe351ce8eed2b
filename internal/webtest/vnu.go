package webtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// vnuTimeout is the deadline of one run of the Nu checker.
const vnuTimeout = 10 * time.Minute

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
	// prints on stderr cannot corrupt it. vnu exits 1 when it found errors,
	// so that status alone is no failure of the tool; an unreadable report
	// is.
	tl := Tool{Name: "vnu (the Nu HTML checker)", Path: "java", Runtime: "java", Timeout: vnuTimeout, Report: []int{1},
		Args: []string{"-jar", jar, "--errors-only", "--skip-non-html", "--format", "json", "--stdout", dir}}
	res := Run(t, tl)
	var rep vnuReport
	if err := json.Unmarshal(res.Stdout, &rep); err != nil {
		BadReport(t, tl, res, err)
	}
	if res.Exit != 0 && len(rep.Messages) == 0 {
		BadReport(t, tl, res, errors.New("it exited 1 without reporting a message"))
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
