package build

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/urls"
)

// Byte budgets of the checklists (the defect of #42 found with #41): the
// prepare page and a topic's "What to check" once grew with the library,
// to 6.5 MB and 1.3 MB at 1,000 cases. Now the prepare page holds only the
// form, whose size follows the vocabulary, and a topic shows the first
// lines of each group. The budgets hold at any size; they are checked on
// a generated library here and at 10,000 cases by TestFootprint. They are
// deterministic: the same library gives the same bytes on every machine.
const (
	preparePageBudget      = 64 << 10  // the prepare page of one language, inline data and all
	topicPageBudget        = 256 << 10 // the largest first page of a topic with a checklist
	topicChecklistBudget   = 96 << 10  // its "What to check" section
	topicChecklistMaxLines = 60        // 10 lines in each of 6 groups
	prepareFileBudget      = 384 << 10 // a file of a part or a product of the prepare page: its newest 200 cases and their checklist as data
)

// TestChecklistBudgets builds a generated library of 1,000 cases (100
// with -short) and holds its prepare pages and its largest topic page to
// their budgets.
func TestChecklistBudgets(t *testing.T) {
	t.Parallel() // no global state: runs beside the other large builds
	n := 1000
	if testing.Short() {
		n = generatedCases()
	}
	dir := memDir(t)
	content, out := filepath.Join(dir, "content"), filepath.Join(dir, "public")
	if err := gencases.WriteDir(content, gencases.Options{N: n, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out}); err != nil {
		t.Fatal(err)
	}
	checkChecklistBudgets(t, out, n)
}

// checkChecklistBudgets holds the prepare page of each language and the
// largest first page of a topic with a checklist, in the output out of a
// library of n cases, to their budgets, and checks that the prepare page
// offers the files of its parts.
func checkChecklistBudgets(t *testing.T, out string, n int) {
	t.Helper()
	for _, lang := range cases.Languages {
		page, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(urls.File(urls.Prepare(lang)))))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d cases: %s is %d bytes", n, urls.Prepare(lang), len(page))
		if len(page) > preparePageBudget {
			t.Errorf("%d cases: %s is %d bytes, over the budget of %d", n, urls.Prepare(lang), len(page), preparePageBudget)
		}
		if !bytes.Contains(page, []byte(`data-src="`)) {
			t.Errorf("%s names no file of a part", urls.Prepare(lang))
		}
		checkPrepareFiles(t, out, lang, n)
		var (
			largest     string
			largestPage []byte
		)
		for _, f := range cases.Facets {
			if !f.Shows(cases.InChecklist) {
				continue
			}
			topics, err := os.ReadDir(filepath.Join(out, filepath.FromSlash(urls.FacetIndex(lang, f.Name))))
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range topics {
				if !d.IsDir() {
					continue
				}
				path := urls.Topic(lang, f.Name, d.Name(), 1)
				b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(urls.File(path))))
				if err != nil {
					t.Fatal(err)
				}
				if len(b) > len(largestPage) {
					largest, largestPage = path, b
				}
			}
		}
		if largest == "" {
			t.Fatalf("%s: no topic page with a checklist", lang)
		}
		section := checklistSection(largestPage)
		lines := bytes.Count(section, []byte("<li data-i="))
		t.Logf("%d cases: the largest topic page, %s, is %d bytes, its checklist %d bytes in %d lines", n, largest, len(largestPage), len(section), lines)
		if len(largestPage) > topicPageBudget {
			t.Errorf("%d cases: %s is %d bytes, over the budget of %d", n, largest, len(largestPage), topicPageBudget)
		}
		if len(section) == 0 || len(section) > topicChecklistBudget || lines > topicChecklistMaxLines {
			t.Errorf("%d cases: the checklist of %s is %d bytes in %d lines; want some, under %d bytes and at most %d lines",
				n, largest, len(section), lines, topicChecklistBudget, topicChecklistMaxLines)
		}
	}
}

// checklistSection returns a topic page's "What to check" section, or nil.
func checklistSection(page []byte) []byte {
	i := bytes.Index(page, []byte(`id="prepare"`))
	if i < 0 {
		return nil
	}
	section := page[i:]
	if j := bytes.Index(section, []byte("</section>")); j >= 0 {
		section = section[:j]
	}
	return section
}

// checkPrepareFiles holds the files of the prepare page's parts and
// products in lang to their budget, and checks that a file of a part with
// more cases than a file holds says so (its "more"), as the largest part's
// does at 1,000 cases.
func checkPrepareFiles(t *testing.T, out, lang string, n int) {
	t.Helper()
	dir := filepath.Join(out, filepath.FromSlash(urls.File(urls.Prepare(lang))), "..")
	largest, size, cut := "", 0, false
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".js" {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if len(b) > size {
			largest, size = path, len(b)
		}
		if len(b) > prepareFileBudget {
			t.Errorf("%d cases: %s is %d bytes, over the budget of %d", n, path, len(b), prepareFileBudget)
		}
		if bytes.Contains(b, []byte(`,"more":{"total":`)) {
			cut = true
		}
		return nil
	})
	if err != nil || largest == "" {
		t.Fatalf("%s: no file of a part (%v)", dir, err)
	}
	t.Logf("%d cases: the largest file of the prepare page, %s, is %d bytes", n, largest, size)
	if n >= 1000 && !cut {
		t.Errorf("%d cases: no file of the prepare page is cut to its part's newest cases", n)
	}
}
