package cases

import (
	"fmt"
	"incidentlib/internal/diag"
	"strings"
	"testing"
	"testing/fstest"

	"incidentlib/internal/gencases"
)

// withUnknownRefs is a generated library of n cases in which every case
// names refs cases that do not exist in related: half of them one
// character away from a real id, half far from every id.
func withUnknownRefs(t testing.TB, n, refs int) fstest.MapFS {
	fsys := gencases.MapFS(gencases.Options{N: n, Seed: 1})
	lib, list := Load(fsys)
	if list.Errors() > 0 {
		t.Fatalf("the generated library has errors: %v", list.Err())
	}
	for i, c := range lib.Cases {
		b := string(fsys[c.File].Data)
		var ids []string
		for j := 0; j < refs; j++ {
			if j%2 == 0 {
				// One digit added to another case's id (a case is never
				// suggested to itself).
				ids = append(ids, fmt.Sprintf("%q", lib.Cases[(i+1)%len(lib.Cases)].ID+"7"))
			} else {
				ids = append(ids, fmt.Sprintf(`"QX-%06d"`, i*refs+j))
			}
		}
		edited := strings.Replace(b, `"related":[`, `"related":[`+strings.Join(ids, ",")+",", 1)
		edited = strings.Replace(edited, `,]`, `]`, 1)
		if edited == b {
			t.Fatalf("%s has no related list", c.File)
		}
		fsys[c.File] = &fstest.MapFile{Data: []byte(edited)}
	}
	return fsys
}

// TestUnknownRefsLinear: the work of "did you mean" for unknown case ids
// grows with the number of misses, not with misses times cases. The old
// check compared each miss with every id: doubling the library doubled
// the misses and the ids, four times the work. Work is counted, not
// timed; with -short the libraries are a quarter of the size.
func TestUnknownRefsLinear(t *testing.T) {
	small := 400
	if testing.Short() {
		small = 100
	}
	work := map[int]int64{}
	for _, n := range []int{small, 2 * small} {
		fsys := withUnknownRefs(t, n, 4)
		before := suggestWork.Load()
		_, list := Load(fsys)
		work[n] = suggestWork.Load() - before
		unknown, suggested := 0, 0
		for _, d := range list.Items {
			if strings.Contains(d.Msg, "no case with id") {
				unknown++
			}
			if strings.Contains(d.Msg, "(did you mean") {
				suggested++
			}
		}
		// The list keeps diag.MaxKept problems and counts the rest: all
		// are counted, and half of those kept have a suggestion.
		if list.Errors() < n*4 || unknown == 0 || unknown > diag.MaxKept || suggested*2 < unknown-2 || suggested*2 > unknown+2 {
			t.Fatalf("%d cases: %d errors, %d unknown ids kept, %d with a suggestion; want at least %d, at most %d and half", n, list.Errors(), unknown, suggested, n*4, diag.MaxKept)
		}
	}
	if ratio := float64(work[2*small]) / float64(work[small]); ratio > 2.3 {
		t.Errorf("work %d for %d cases, %d for %d: ×%.2f, want linear (×2)", work[small], small, work[2*small], 2*small, ratio)
	}
}

// TestSuggester: a large set suggests what DidYouMean suggests for a name
// one edit away, or two neighbours swapped; a small set is DidYouMean.
func TestSuggester(t *testing.T) {
	ids := []string{"IL-0495", "IL-1200"}
	for i := 0; i < 1000; i++ {
		ids = append(ids, fmt.Sprintf("QQ-%04d", i))
	}
	big := newSuggester(ids)
	for miss, want := range map[string]string{
		"IL-0496":   "IL-0495", // changed
		"IL-04955":  "IL-0495", // added
		"IL-049":    "IL-0495", // removed
		"IL-4095":   "IL-0495", // swapped
		"IL-1201":   "IL-1200",
		"QQ-09995":  "QQ-0995", // the first in order of the closest (QQ-0999 too)
		"ZZ-9999":   "",
		"IL-0497ab": "", // two edits away: not looked for in a large set
	} {
		got := big.didYouMean(miss)
		if want == "" && got != "" || want != "" && got != ` (did you mean "`+want+`"?)` {
			t.Errorf("DidYouMean(%q) = %q, want %q", miss, got, want)
		}
		if want != "" && miss != "IL-4095" && got != DidYouMean(miss, ids) {
			t.Errorf("DidYouMean(%q) = %q, the full comparison %q", miss, got, DidYouMean(miss, ids))
		}
	}
	small := newSuggester([]string{"ingress", "dns", "database"})
	if got := small.didYouMean("ingres"); got != ` (did you mean "ingress"?)` {
		t.Errorf("small set: %q", got)
	}
	if got := newSuggester(nil).didYouMean("x"); got != "" {
		t.Errorf("empty set: %q", got)
	}
}

// BenchmarkUnknownRefs checks a 16,500-case library in which one case
// names 10,000 cases that do not exist (the goal: under 3 s).
func BenchmarkUnknownRefs(b *testing.B) {
	fsys := gencases.MapFS(gencases.Options{N: 16500, Seed: 1})
	name := "cases/IL-0001.json"
	for n := range fsys {
		if strings.HasPrefix(n, "cases/") {
			name = n
			break
		}
	}
	var ids []string
	for i := 0; i < 10000; i++ {
		ids = append(ids, fmt.Sprintf(`"QX-%06d"`, i))
	}
	src := string(fsys[name].Data)
	edited := strings.Replace(src, `"related":[`, `"related":[`+strings.Join(ids, ",")+",", 1)
	fsys[name] = &fstest.MapFile{Data: []byte(strings.Replace(edited, `,]`, `]`, 1))}
	b.ResetTimer()
	for b.Loop() {
		_, list := Load(fsys)
		if list.Errors() < 10000 {
			b.Fatalf("%d errors, want 10,000", list.Errors())
		}
	}
}
