package build

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"incidentlib/internal/cases"
)

// DraftContent copies the shipped content and adds two drafts: IL-0999, a
// whole case (IL-0495's, with the word draftmarkword in its summary), and
// IL-0998, the skeleton incidentlib new writes, every field still to fill
// in.
func draftContent(t *testing.T) string {
	t.Helper()
	content := smallContent(t)
	src, err := os.ReadFile(filepath.Join(content, "cases", "IL-0495.json"))
	if err != nil {
		t.Fatal(err)
	}
	draft := strings.Replace(string(src), `{"id":"IL-0495",`, `{"draft":true,"id":"IL-0999",`, 1)
	draft = strings.Replace(draft, `"summary":{"en":"`, `"summary":{"en":"Draftmarkword. `, 1)
	if !strings.Contains(draft, "IL-0999") || !strings.Contains(draft, "Draftmarkword") {
		t.Fatal("IL-0495 changed shape: update the test")
	}
	skeleton, err := cases.Skeleton("IL-0998", cases.LocalSchemaRef, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, content, map[string]string{"cases/IL-0999.json": draft, "cases/IL-0998.json": string(skeleton)})
	return content
}

// TestDraftsLeftOut: a case marked "draft": true is in no file of the
// output (pages, Markdown twins, the API, the search index, feeds, the
// sitemap, llms.txt), whether it is whole or still a skeleton with
// sixteen problems, and the build neither fails nor warns for it.
func TestDraftsLeftOut(t *testing.T) {
	content := draftContent(t)
	out := filepath.Join(t.TempDir(), "public")
	st, list, err := Run(context.Background(), opts(content, out))
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) > 0 {
		t.Errorf("a draft's problems reached the build's report: %v", list.Items)
	}
	if strings.Join(st.Drafts, " ") != "IL-0998 IL-0999" {
		t.Errorf("drafts left out: %v", st.Drafts)
	}
	files := tree(t, out)
	if len(files) < 300 || files["sitemap.xml"] == nil || files["search/manifest.json"] == nil {
		t.Fatalf("only %d files", len(files))
	}
	for p, data := range files {
		for _, word := range []string{"IL-0999", "IL-0998", "Draftmarkword", "draftmarkword"} {
			if strings.Contains(p, word) || bytes.Contains(data, []byte(word)) {
				t.Errorf("%s holds %s, a draft's", p, word)
			}
		}
	}
}

// TestCalloutOptional: without a callout in site.json no page holds an
// empty box; the shipped one is on every case page.
func TestCalloutOptional(t *testing.T) {
	_, shipped := built(t)
	if !bytes.Contains(shipped["en/cases/IL-0495/index.html"], []byte(`class="callout"`)) && !bytes.Contains(shipped["en/cases/IL-0495/index.html"], []byte(`class=callout`)) {
		t.Fatal("the shipped callout is not on a case page")
	}
	content := smallContent(t)
	file := filepath.Join(content, "site.json")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var site map[string]json.RawMessage
	if err := json.Unmarshal(src, &site); err != nil {
		t.Fatal(err)
	}
	delete(site, "callout")
	b, _ := json.Marshal(site)
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	if _, list, err := Run(context.Background(), opts(content, out)); err != nil || len(list.Items) > 0 {
		t.Fatalf("%v %v", err, list.Items)
	}
	for p, data := range tree(t, out) {
		if strings.HasSuffix(p, ".html") && bytes.Contains(data, []byte("callout")) {
			t.Errorf("%s holds a callout though site.json has none", p)
		}
	}
}
