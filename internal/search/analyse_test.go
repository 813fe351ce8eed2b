package search

import "testing"

// TestAnalysisHoldsOnlyPostings checks what an analysis keeps while the
// pages of a build render beside it: of each part, its postings only,
// without the slack of growing them, in blocks that the walk over the
// terms frees as it passes them; the term tables and tokenizers are gone.
func TestAnalysisHoldsOnlyPostings(t *testing.T) {
	docs, labels := libraryDocs(t, 300)
	sorted, err := sortDocs(docs)
	if err != nil {
		t.Fatal(err)
	}
	ix := analyseSorted(sorted, labels)
	for p, pt := range ix.parts {
		if pt.a.table.slots != nil || pt.a.terms != nil || pt.a.tk.rs != nil || pt.a.state != nil || pt.order != nil {
			t.Errorf("part %d keeps its term table, terms, tokenizer or last documents after the analysis", p)
		}
		used, held := 0, 0
		for _, ps := range pt.postings {
			if len(ps) == 0 {
				t.Fatalf("part %d has a term without postings", p)
			}
			used += len(ps)
			held += cap(ps)
		}
		if held != used {
			t.Errorf("part %d holds %d bytes of postings for %d used", p, held, used)
		}
	}
	if _, err := ix.walkTerms(defaultConfig, true, func(int, string, string, []posting, []byte) error { return nil }); err != nil {
		t.Fatal(err)
	}
	for p, pt := range ix.parts {
		for k, ps := range pt.postings {
			if ps != nil {
				t.Fatalf("part %d: the postings of term %d are still held after the walk released them", p, k)
			}
		}
	}
}
