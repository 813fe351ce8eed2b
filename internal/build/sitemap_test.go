package build

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidentlib"
	"incidentlib/internal/gencases"
	"incidentlib/internal/urls"
)

// TestSitemapListsWrittenPages builds a generated library of 300 cases at
// one case per list page (about 7,700 pages) and checks the sitemap against
// the pages really written: every page listed exactly once, nothing else.
// The split into an index of parts within the protocol's limits is checked
// where it costs no rendering, on 120,000 URLs (site.TestSitemapAtScale);
// this test once built 2,100 cases (54,000 pages, 650 MB) to see both at
// once, which took most of this package's time on a loaded machine. It
// reads the sitemap either way: an index of parts or one file.
func TestSitemapListsWrittenPages(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds 7,700 pages")
	}
	dir := memDir(t)
	content, out := filepath.Join(dir, "content"), filepath.Join(dir, "public")
	if err := gencases.WriteDir(content, gencases.Options{N: 300, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	setPageSize(t, content, 1)
	st, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out})
	if err != nil {
		t.Fatal(err)
	}

	pages := map[string]bool{}
	err = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		// The language chooser belongs to no language, and no 404 page
		// (the root's or a language's) is listed.
		if rel != "index.html" && filepath.Base(rel) != urls.NotFound {
			pages[strings.TrimSuffix(filepath.ToSlash(rel), "index.html")] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 5000 {
		t.Fatalf("only %d language pages: page_size 1 should give thousands", len(pages))
	}
	base := readBaseURL(t, content)
	type urlset struct {
		XMLName xml.Name
		Locs    []string `xml:"url>loc"`
		Parts   []string `xml:"sitemap>loc"`
	}
	read := func(name string) urlset {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 50<<20 {
			t.Errorf("%s has %d bytes", name, len(b))
		}
		var u urlset
		if err := xml.Unmarshal(b, &u); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return u
	}
	index := read("sitemap.xml")
	listed := map[string]int{}
	switch {
	case index.XMLName.Local == "urlset" && len(index.Parts) == 0:
		for _, l := range index.Locs {
			listed[strings.TrimPrefix(l, base)]++
		}
	case index.XMLName.Local != "sitemapindex" || len(index.Parts) < 2:
		t.Fatalf("sitemap.xml: a %s of %d parts, want a urlset or an index of 2 or more", index.XMLName.Local, len(index.Parts))
	}
	for _, loc := range index.Parts {
		name, ok := strings.CutPrefix(loc, base)
		if !ok {
			t.Fatalf("part %s is not under %s", loc, base)
		}
		part := read(name)
		if n := len(part.Locs); n == 0 || n > 50000 {
			t.Errorf("%s lists %d URLs", name, n)
		}
		for _, l := range part.Locs {
			listed[strings.TrimPrefix(l, base)]++
		}
	}
	for p, n := range listed {
		if n != 1 || !pages[p] {
			t.Errorf("%s listed %d times; written: %v", p, n, pages[p])
		}
	}
	for p := range pages {
		if listed[p] == 0 {
			t.Errorf("page %s is in no sitemap", p)
		}
	}
	want := 1 // one urlset
	if len(index.Parts) > 0 {
		want = len(index.Parts) + 1 // the index and its parts
	}
	if st.Kinds["sitemap"] != want {
		t.Errorf("%d sitemap files written, want %d (the index names %d parts)", st.Kinds["sitemap"], want, len(index.Parts))
	}
}

func setPageSize(t *testing.T, content string, n int) {
	t.Helper()
	p := filepath.Join(content, "site.json")
	var site map[string]any
	b, err := os.ReadFile(p)
	if err == nil {
		err = json.Unmarshal(b, &site)
	}
	if err != nil {
		t.Fatal(err)
	}
	site["page_size"] = n
	b, _ = json.Marshal(site)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readBaseURL(t *testing.T, content string) string {
	t.Helper()
	var site struct {
		BaseURL string `json:"base_url"`
	}
	b, err := os.ReadFile(filepath.Join(content, "site.json"))
	if err == nil {
		err = json.Unmarshal(b, &site)
	}
	if err != nil {
		t.Fatal(err)
	}
	return site.BaseURL
}

// memDir is a temporary folder in memory (/dev/shm) where there is one:
// on a disk mounted with discard, deleting 70,000 files takes longer than
// writing them.
func memDir(t *testing.T) string {
	t.Helper()
	if fi, err := os.Stat("/dev/shm"); err != nil || !fi.IsDir() {
		return t.TempDir()
	}
	dir, err := os.MkdirTemp("/dev/shm", "incidentlib-test-")
	if err != nil {
		return t.TempDir()
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
