package webtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// htmlValidateTimeout is the deadline of one run of html-validate.
const htmlValidateTimeout = 10 * time.Minute

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
	// It exits 1 when it found errors; a report that does not parse, or a
	// failure without one, is the tool failing.
	tl := Tool{Name: "html-validate", Path: bin, Args: []string{"-c", config, "-f", "json", filepath.ToSlash(dir) + "/**/*.html"},
		Runtime: "node", Timeout: htmlValidateTimeout, Report: []int{1}}
	res := Run(t, tl)
	var rep []struct {
		FilePath string `json:"filePath"`
		Messages []struct {
			RuleID  string `json:"ruleId"`
			Message string `json:"message"`
			Line    int    `json:"line"`
			Column  int    `json:"column"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(res.Stdout, &rep); err != nil {
		BadReport(t, tl, res, err)
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
	if res.Exit != 0 && len(out) == 0 {
		BadReport(t, tl, res, errors.New("it exited 1 without reporting a problem"))
	}
	sort.Strings(out)
	return out
}
