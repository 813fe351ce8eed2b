package build

import (
	"bytes"
	"context"
	"fmt"
	"hash/maphash"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/library"
	"incidentlib/internal/site"
)

// tree reads every file under dir into a map.
func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sameTree(t *testing.T, a, b map[string][]byte, what string) {
	t.Helper()
	if len(a) != len(b) {
		t.Errorf("%s: %d files vs %d", what, len(a), len(b))
	}
	for k, v := range a {
		if !bytes.Equal(v, b[k]) {
			t.Errorf("%s: %s differs", what, k)
		}
	}
}

func TestBuildDeterministicAndParallel(t *testing.T) {
	t.Parallel() // no global state: runs beside the other large builds
	// The content (sharedLibrary) is read, never written: no copy. The
	// build of the tests of output_test.go (built, as many workers as
	// CPUs) is the third.
	content := sharedLibrary(t)
	dir := t.TempDir()
	one, par := filepath.Join(dir, "one"), filepath.Join(dir, "par")
	st, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: one, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Pages < 50 || st.Files <= st.Pages || st.Bytes == 0 {
		t.Errorf("implausible stats %+v", st)
	}
	if !strings.Contains(st.Summary(), "pages") {
		t.Errorf("summary %q", st.Summary())
	}
	lines := strings.Join(st.KindLines(), "\n")
	for _, want := range []string{"en: 1 404, 1 API page, ", " case pages, ", "ko: ", "site: 1 404, ", " search index files", "3 host files,"} {
		if !strings.Contains(lines, want) {
			t.Errorf("what the build says it wrote lacks %q:\n%s", want, lines)
		}
	}
	// Four workers and the text outside the Go heap, as the CLI keeps it:
	// the site must not change.
	if _, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: par, Workers: 4, OffHeap: true}); err != nil {
		t.Fatal(err)
	}
	a := tree(t, one)
	sameTree(t, a, tree(t, par), "one worker vs four, off-heap text")
	_, shared := built(t)
	sameTree(t, a, shared, "one worker vs one a CPU, heap text")
	for _, want := range []string{"index.html", "404.html", "sitemap.xml", "robots.txt", "en/index.html", "ko/index.html",
		"en/cases/IL-0495/index.html", "ko/cases/IL-0495/index.html", "en/components/ingress/index.html", "ko/feed.xml"} {
		if a[want] == nil {
			t.Errorf("%s not written", want)
		}
	}
	// Nothing is left beside the output folders.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("output parent holds %d entries, want 2", len(entries))
	}
}

func TestFailedBuildKeepsOutput(t *testing.T) {
	content := smallContent(t)
	out := filepath.Join(t.TempDir(), "public")
	if _, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out}); err != nil {
		t.Fatal(err)
	}
	before := tree(t, out)
	// Break one case two ways and another case a third way.
	p := filepath.Join(content, "cases", "IL-0495.json")
	b, _ := os.ReadFile(p)
	bad := strings.Replace(string(b), `"root_cause":"software-bug"`, `"root_cause":"software-bugs"`, 1)
	bad = strings.Replace(bad, `"date":"2024-08-27"`, `"date":"2024-02-30"`, 1)
	os.WriteFile(p, []byte(bad), 0o644)
	os.WriteFile(filepath.Join(content, "cases", "IL-0338.json"), []byte(`{"id": "IL-0338",}`), 0o644)
	_, list, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out})
	if err == nil {
		t.Fatal("broken content built")
	}
	report := (&list).Err().Error()
	for _, want := range []string{
		`cases/IL-0495.json:1:`, `root_cause: unknown term "software-bugs" (did you mean "software-bug"?)`,
		`date: "2024-02-30" is not a real date`, `cases/IL-0338.json:1:18: trailing comma`,
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	sameTree(t, before, tree(t, out), "after a failed build")
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Errorf("a failed build left %d entries beside the output", len(entries))
	}
}

func TestWriterRejectsEscapes(t *testing.T) {
	w, err := newWriter(target{out: filepath.Join(t.TempDir(), "out")}, "out")
	if err != nil {
		t.Fatal(err)
	}
	defer w.abandon()
	for _, p := range []string{"../x", "a/../../x", "/etc/x", "", "a//b", `a\..\x`, "./a"} {
		if err := w.write(p, nil); err == nil {
			t.Errorf("write(%q) accepted", p)
		}
	}
	if err := w.write("a/b.html", []byte("x")); err != nil {
		t.Error(err)
	}
}

// TestWriterFolderHashCollision makes a folder look made when it is not, as
// when two folders share a hash: the write must still land.
func TestWriterFolderHashCollision(t *testing.T) {
	w, err := newWriter(target{out: filepath.Join(t.TempDir(), "out")}, "out")
	if err != nil {
		t.Fatal(err)
	}
	defer w.abandon()
	for _, dir := range []string{"en", "en/cases", "en/cases/IL-0001"} {
		w.dirs[maphash.String(dirSeed, filepath.Join(w.tmp, dir))] = struct{}{}
	}
	if err := w.write("en/cases/IL-0001/index.html", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(w.tmp, "en/cases/IL-0001/index.html")); err != nil || string(b) != "x" {
		t.Fatalf("file not written: %v", err)
	}
}

// TestRelativeOut builds into output folders named relative to the working
// folder, as `make build` does with "public": the writer once climbed past
// its "./"-prefixed temporary folder and recursed until the stack ran out.
func TestRelativeOut(t *testing.T) {
	content := smallContent(t)
	if !filepath.IsAbs(content) {
		t.Fatalf("content copy %q is not absolute", content)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	for _, out := range []string{"public", "site/public", "./public"} {
		if _, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out, Workers: 2}); err != nil {
			t.Fatalf("Out %q: %v", out, err)
		}
		if _, err := os.Stat(filepath.Join(dir, out, "en", "cases", "IL-0495", "index.html")); err != nil {
			t.Errorf("Out %q: %v", out, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("working folder holds %d entries, want public and site", len(entries))
	}
}

// TestBaseURLChecked: -base-url follows the rule of base_url in site.json,
// so that no javascript: URL reaches a canonical link or a feed.
func TestBaseURLChecked(t *testing.T) {
	content := smallContent(t)
	for _, u := range []string{"javascript:alert(1)//", "https://example.org/?q=1/", "https://example.org/#x/", "example.org/"} {
		out := filepath.Join(t.TempDir(), "public")
		_, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out, BaseURL: u})
		if err == nil || !strings.Contains(err.Error(), "base URL") {
			t.Errorf("-base-url %s: err = %v", u, err)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("-base-url %s: output written", u)
		}
	}
}

// TestFailedDeriveStopsEarlyExtras: the extras that need only the library
// start before the theme is parsed; when the theme then fails, Run stops
// them and waits for them before it removes the temporary folder, so that
// none writes after the failed build returned, and the output is as it was.
func TestFailedDeriveStopsEarlyExtras(t *testing.T) {
	content := smallContent(t)
	out := filepath.Join(t.TempDir(), "public")
	if _, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out}); err != nil {
		t.Fatal(err)
	}
	before := tree(t, out)
	var returned atomic.Bool
	wrote := make(chan struct{})
	early := site.Extra{Name: "early", Library: func(lib *cases.Library, _ library.Topics, _ bool, write func(string, []byte) error) error {
		defer returned.Store(true)
		for i := 0; ; i++ {
			if err := write(fmt.Sprintf("early/%d.txt", i), []byte("x")); err != nil {
				return err
			}
			if i == 0 {
				close(wrote) // the theme fails now
			}
			time.Sleep(50 * time.Millisecond) // so that a Run that does not wait returns first
		}
	}}
	// The theme fails once the extra has written a file (or after a
	// while, if the extra never starts before the theme).
	broken := openFunc(func(name string) (fs.File, error) {
		select {
		case <-wrote:
		case <-time.After(10 * time.Minute):
			t.Error("the early extra did not start before the theme")
		}
		return nil, fs.ErrNotExist
	})
	_, _, err := Run(context.Background(), Options{Templates: broken, Static: incidentlib.Static(), Content: content, Out: out, Extras: []site.Extra{early}})
	if err == nil {
		t.Fatal("a broken theme built")
	}
	if !returned.Load() {
		t.Fatal("Run returned before the early extra")
	}
	sameTree(t, before, tree(t, out), "after a failed theme")
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Errorf("a failed build left %d entries beside the output", len(entries))
	}
}

// openFunc is a file system that is one Open function.
type openFunc func(name string) (fs.File, error)

func (f openFunc) Open(name string) (fs.File, error) { return f(name) }
