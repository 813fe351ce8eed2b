package search

import (
	"fmt"
	"slices"
	"testing"
)

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

// TestTermTable checks that the table gives each term one number, in order
// of first sight, across its growth, and tells apart terms that are
// prefixes of one another or that share a hash.
func TestTermTable(t *testing.T) {
	var tt termTable
	var terms [][]rune
	for i := range 5000 {
		w := []rune(fmt.Sprintf("t%d", i))
		terms = append(terms, w, append(slices.Clone(w), '로'), w[:1])
	}
	// Two terms with the same hash (FNV-1a's known pair): the table must
	// compare the runes.
	a, b := []rune("costarring"), []rune("liquid")
	if hashRunes(a) != hashRunes(b) {
		t.Fatalf("%q and %q no longer share a hash: find another pair", string(a), string(b))
	}
	terms = append(terms, a, b)
	want := map[string]int32{}
	for round := range 2 {
		for _, w := range terms {
			n, isNew := tt.number(w)
			k, seen := want[string(w)]
			switch {
			case !seen:
				if !isNew || n != int32(len(want)) {
					t.Fatalf("round %d: %q got %d (new %v), want new %d", round, string(w), n, isNew, len(want))
				}
				want[string(w)] = n
			case isNew || n != k:
				t.Fatalf("round %d: %q got %d (new %v), want %d", round, string(w), n, isNew, k)
			}
		}
	}
	if int(tt.n) != len(want) {
		t.Errorf("table counts %d terms, want %d", tt.n, len(want))
	}
}
