package library

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOverlapAtLeast holds overlapAtLeast to overlap on random sets, at
// the thresholds the merging uses and at the overlaps the sets have
// exactly (where rounding would show): the same pairs pass, with the same
// overlap.
func TestOverlapAtLeast(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	set := func() wordSet {
		n := r.IntN(25)
		m := map[int32]bool{}
		for len(m) < n {
			m[int32(r.IntN(40))] = true
		}
		s := wordSet{}
		for w := range m {
			s = append(s, w)
		}
		slices.Sort(s)
		return s
	}
	passed, failed := 0, 0
	for range 20000 {
		a, b := set(), set()
		exact := a.overlap(b)
		for _, th := range []float64{mergeEn, mergeKo, mergeAlone, exact} {
			if th == 0 {
				continue
			}
			v, ok := a.overlapAtLeast(b, th)
			if ok != (exact >= th) || ok && v != exact {
				t.Fatalf("%v and %v at %v: overlapAtLeast gives %v, %v; overlap %v", a, b, th, v, ok, exact)
			}
			if ok {
				passed++
			} else {
				failed++
			}
		}
	}
	if passed < 1000 || failed < 1000 {
		t.Fatalf("%d pairs passed, %d failed: the test does not exercise both", passed, failed)
	}
}
