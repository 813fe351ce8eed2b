package search

import (
	"reflect"

	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
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
		if pt.a.table.slots != nil || pt.a.terms != nil || !reflect.ValueOf(pt.a.tk).IsZero() || pt.a.state != nil || pt.sorted != nil {
			t.Errorf("part %d keeps its term table, terms, tokenizer or last documents after the analysis", p)
		}
		if pt.a.pieces.slots != nil || pt.a.pieces.recs != nil || pt.a.rec != nil || pt.a.met != nil {
			t.Errorf("part %d keeps its memo of pieces after the analysis", p)
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

// TestTermWeight compares termWeight, which takes the document's part of
// the denominator worked out beforehand and skips the rounding to a step of
// one, with BM25's weight written out in one expression, rounded to the
// step and then to a whole number.
func TestTermWeight(t *testing.T) {
	n := 0
	for _, refLen := range []float64{1, referenceLength(180), referenceLength(1234.5)} {
		for length := 0.0; length <= 5000; length += 7 {
			for tf := 0.5; tf <= 60; tf += 0.5 {
				for _, step := range []float64{1, weightStep(900, 1000), weightStep(600, 1000), 2.5} {
					denom := tf + float64(bm25K1*float64(1-bm25B+float64(bm25B*length/refLen)))
					w := float64(tf*(bm25K1+1)) / denom * scoreScale
					want := max(int32(math.Round(float64(math.Round(w/step)*step))), 1)
					if got := termWeight(tf, lengthNorm(length, refLen), step); got != want {
						t.Fatalf("termWeight(tf %v, length %v, refLen %v, step %v) = %d, want %d", tf, length, refLen, step, got, want)
					}
					n++
				}
			}
		}
	}
	if n < 100000 {
		t.Fatalf("only %d cases", n)
	}
}

// TestCompareTerms holds compareTerms, with the sortKeys it takes, to
// strings.Compare: on terms that share their first eight bytes or fewer,
// that end inside them, that hold zero bytes, in Hangul and in Latin.
func TestCompareTerms(t *testing.T) {
	terms := []string{"", "a", "a\x00", "a\x00\x00", "ab", "abcdefgh", "abcdefgh\x00", "abcdefghi", "abcdefgi", "abcdefg",
		"infrastructure", "infrastructural", "infra", "+서버", "+서버장애", "서버", "서버가", "서", "로드밸런서", "로드밸런", "\xff", "\xff\xff\xff\xff\xff\xff\xff\xff\x01", "zz"}
	for _, a := range terms {
		for _, b := range terms {
			if got, want := compareTerms(sortKey(a), sortKey(b), a, b), strings.Compare(a, b); got != want {
				t.Errorf("compareTerms(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
}

// TestPartsMergeAsOne checks that the analysis is the same whatever the
// number of parts the documents are split into: the merged terms, their
// counts and word flags, and every entry the walk makes of them.
func TestPartsMergeAsOne(t *testing.T) {
	docs, labels := readFixture(t)
	docs = append(docs, synthDocs(300, 7)...)
	sorted, err := sortDocs(docs)
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		terms   []string
		counts  []int32
		word    []bool
		entries []string
		parts   int
	}
	analyseWith := func(procs int) result {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		ix := analyseSorted(sorted, labels)
		r := result{terms: ix.terms, counts: ix.counts, word: ix.word, parts: len(ix.parts)}
		if _, err := ix.walkTerms(defaultConfig, true, func(_ int, _, _ string, _ []posting, entry []byte) error {
			r.entries = append(r.entries, string(entry))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return r
	}
	one, several := analyseWith(1), analyseWith(7)
	if one.parts != 1 || several.parts < 2 {
		t.Fatalf("analysed in %d and %d parts, want 1 and several", one.parts, several.parts)
	}
	if !slices.IsSorted(one.terms) {
		t.Error("the terms are not sorted")
	}
	if !slices.Equal(one.terms, several.terms) || !slices.Equal(one.counts, several.counts) || !slices.Equal(one.word, several.word) || !slices.Equal(one.entries, several.entries) {
		t.Errorf("%d parts analyse otherwise than one: %d and %d terms", several.parts, len(several.terms), len(one.terms))
	}
}
