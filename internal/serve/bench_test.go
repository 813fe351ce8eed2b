package serve

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"incidentlib"
	"incidentlib/internal/build"
	"incidentlib/internal/gencases"
	"incidentlib/internal/library"
)

// BenchmarkReloadOneCase measures, at 10,000 generated cases, the time from
// a saved one-case edit to the new model being ready (re-read and check the
// case, derive the site, index its files), without the debounce wait. It
// reports the median and the median of each part, and checks that the
// edit is on the page.
func BenchmarkReloadOneCase(b *testing.B) {
	dir := library10k(b)
	srv, err := New(Options{Extras: build.StandardExtras(), BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: dir})
	if err != nil {
		b.Fatal(err)
	}
	if m := srv.live.Current(); m.site == nil {
		b.Fatalf("generated library has problems: %v", m.problems.Items)
	}
	rel, file, orig := benchCase(b, dir)
	var total []time.Duration
	parts := map[string][]time.Duration{}
	n := 0
	for b.Loop() {
		n++
		title := fmt.Sprintf("Edited title number %d", n)
		writeTitle(b, file, orig, title)
		t0 := time.Now()
		srv.live.Apply(library.Change{Content: []string{rel}}, rel)
		total = append(total, time.Since(t0))
		m := srv.live.Current()
		if m.site == nil {
			b.Fatalf("edit %d: %v", n, m.problems.Items)
		}
		for _, t := range m.timings {
			parts[t.name] = append(parts[t.name], t.took)
		}
		if n == 1 {
			rec := httptest.NewRecorder()
			srv.handler().ServeHTTP(rec, httptest.NewRequest("GET", "http://localhost/en/cases/"+benchID+"/", nil))
			if !strings.Contains(rec.Body.String(), title) {
				b.Fatalf("the page does not show the edit %q", title)
			}
		}
	}
	b.ReportMetric(median(total), "median-ms")
	for name, ds := range parts {
		b.ReportMetric(median(ds), name+"-ms")
	}
}

func median(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[(len(s)-1)/2].Microseconds()) / 1000
}

// BenchmarkEditToPage measures what a person sees at 10,000 cases: from
// writing a one-case edit to the page served with the new text, through
// the real watcher and its debounce, with the page polled every 5 ms.
func BenchmarkEditToPage(b *testing.B) {
	dir := library10k(b)
	page := start(b, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: dir}).url + "/en/cases/" + benchID + "/"
	fetch := func() string {
		resp, err := http.Get(page)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return string(body)
	}
	_, file, orig := benchCase(b, dir)
	var total []time.Duration
	n := 0
	for b.Loop() {
		n++
		title := fmt.Sprintf("Edited title number %d", n)
		t0 := time.Now()
		writeTitle(b, file, orig, title)
		for !strings.Contains(fetch(), title) {
			if time.Since(t0) > 10*time.Second {
				b.Fatalf("edit %d not on the page after 10 s", n)
			}
			time.Sleep(5 * time.Millisecond)
		}
		total = append(total, time.Since(t0))
	}
	b.ReportMetric(median(total), "median-ms")
}

const benchID = "IL-005000"

// benchCase returns the case the benchmarks edit, with its bytes.
func benchCase(b *testing.B, dir string) (rel, file string, orig []byte) {
	rel = "cases/" + benchID + ".json"
	file = filepath.Join(dir, filepath.FromSlash(rel))
	orig, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	if !bytes.Contains(orig, []byte(titleKey)) {
		b.Fatalf("%s has no %s", rel, titleKey)
	}
	return rel, file, orig
}

const titleKey = `"title":{"en":"`

// writeTitle saves the case with title put in front of its English title.
func writeTitle(b *testing.B, file string, orig []byte, title string) {
	edited := bytes.Replace(orig, []byte(titleKey), []byte(titleKey+title+" "), 1)
	if err := os.WriteFile(file, edited, 0o644); err != nil {
		b.Fatal(err)
	}
}

var (
	genOnce sync.Once
	genDir  string
	genErr  error
)

// library10k generates the 10,000-case library once for all benchmarks of
// a run (it takes seconds); TestMain removes it.
func library10k(b *testing.B) string {
	genOnce.Do(func() {
		if genDir, genErr = os.MkdirTemp("", "incidentlib-serve-bench-"); genErr == nil {
			genErr = gencases.WriteDir(genDir, gencases.Options{N: 10000, Seed: 1})
		}
	})
	if genErr != nil {
		b.Fatal(genErr)
	}
	return genDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if genDir != "" {
		os.RemoveAll(genDir)
	}
	os.Exit(code)
}
