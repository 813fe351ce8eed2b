package build

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"incidentlib/internal/repotest"
)

// smallCases are the cases smallContent keeps: the ones the tests of this
// package name, and a few more of different facets. None of them names a
// case left out.
var smallCases = []string{"IL-0011", "IL-0053", "IL-0081", "IL-0338", "IL-0495", "IL-0630", "IL-0631"}

// smallContent copies content/ to a folder of the test's with only
// smallCases among its cases: the whole site of a few cases, every page
// kind and the same settings, prose and topic pages, for the tests of the
// output folder, which care about the folder and not about how many cases
// fill it. A copy of the whole library took most of their time.
func smallContent(t *testing.T) string {
	t.Helper()
	content := repotest.CopyDir(t, "content")
	dir := filepath.Join(content, "cases")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !slices.Contains(smallCases, strings.TrimSuffix(e.Name(), ".json")) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	return content
}

// TestSmallContentBuilds: the small library builds without a problem and
// holds every kind of page of the whole one.
func TestSmallContentBuilds(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	st, list, err := Run(t.Context(), opts(smallContent(t), out))
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) > 0 {
		t.Errorf("the small library has problems: %v", list.Items)
	}
	if st.Kinds["en case page"] != len(smallCases) || st.Kinds["ko Markdown twin"] != len(smallCases) {
		t.Errorf("%d English case pages and %d Korean twins, want %d", st.Kinds["en case page"], st.Kinds["ko Markdown twin"], len(smallCases))
	}
	for _, kind := range []string{"en home", "ko case list", "en facet page", "ko topic page", "en prose page", "ko search page", "en API page", "en feed", "ko 404", "sitemap", "search index file", "api file"} {
		if st.Kinds[kind] == 0 {
			t.Errorf("no %s in the small library's site", kind)
		}
	}
}
