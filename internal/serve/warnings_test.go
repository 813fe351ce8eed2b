package serve

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"incidentlib"
	"incidentlib/internal/diag"
	"incidentlib/internal/repotest"
)

// TestErrorPageWarnings: however many problems there are, the preview's
// error page shows every error, the first warnings and the count of the
// others by kind, and stays under 2 MB (a library with one error and
// 50,000 warnings made a 27 MB page of every request).
func TestErrorPageWarnings(t *testing.T) {
	dir := repotest.ContentDir(t)
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: dir})
	m := r.srv.live.Current()
	const limit = 2 << 20
	particle := diag.Diag{File: "cases/IL-0495.json", Line: 1, Col: 200, Field: "summary.ko", Warning: true,
		Msg: `particle written apart from the word before it: write "HubSpot은", not "HubSpot 은"`}
	future := diag.Diag{File: "cases/IL-0495.json", Line: 1, Col: 40, Field: "updated_at", Warning: true, Msg: `"2099-01-01" is in the future`}
	for _, c := range []struct {
		name          string
		errors, warns int
		want          []string
	}{
		{"one error, 50,000 warnings", 1, 50000, []string{"The site cannot be shown: 1 problem<", "error number 0<",
			"and 49,980 more: 44,982 particle, 4,998 future date; run incidentlib check for all"}},
		{"100,000 errors", 100000, 0, []string{"100000 problems", "error number 999<", "and 99000 more problems, not shown"}},
	} {
		var l diag.List
		for i := range c.errors {
			// Each error in a file of its own, so that the page does
			// not clip them by file.
			l.Errorf("cases/IL-"+diag.Thousands(i)+".json", 1, 1, "title", "error number %d", i)
		}
		for i := range c.warns {
			if i%10 == 9 {
				l.Add(future)
			} else {
				l.Add(particle)
			}
		}
		w := httptest.NewRecorder()
		r.srv.errorPage(w, m, l, 500)
		body := w.Body.String()
		t.Logf("%s: %d bytes", c.name, len(body))
		if len(body) > limit {
			t.Errorf("%s: the page is %d bytes, want at most %d", c.name, len(body), limit)
		}
		for _, s := range c.want {
			if !strings.Contains(body, s) {
				t.Errorf("%s: the page does not say %q", c.name, s)
			}
		}
		if n := strings.Count(body, "warning: "); c.warns > 0 && n != diag.ShownWarnings {
			t.Errorf("%s: %d warnings shown, want %d", c.name, n, diag.ShownWarnings)
		}
	}
}

// TestServeWarningsBrief: the terminal of a preview whose content has
// hundreds of warnings shows the first 20 and counts the others by kind.
func TestServeWarningsBrief(t *testing.T) {
	dir := repotest.CopyDir(t, "content")
	files, _ := filepath.Glob(filepath.Join(dir, "cases", "*.json"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(f, []byte(strings.ReplaceAll(string(b), "를 ", " 를 ")), 0o644) // a particle written apart
	}
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: dir})
	log := r.log.String()
	if n := strings.Count(log, "particle written apart from the word"); n != diag.ShownWarnings {
		t.Errorf("the terminal shows %d warnings, want %d:\n%s", n, diag.ShownWarnings, log)
	}
	if !regexp.MustCompile(`and [0-9,]+ more: [0-9,]+ particle; run incidentlib check for all`).MatchString(log) {
		t.Errorf("the terminal does not count the other warnings by kind:\n%s", log)
	}
}
