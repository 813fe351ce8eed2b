package cases

import (
	"sort"
	"sync/atomic"
	"unicode/utf8"
)

// suggester answers "did you mean" for one set of names (the case ids of a
// library, the terms of a vocabulary field) with bounded work per miss, so
// that a check with ten thousand unknown references stays linear.
// DidYouMean compares a miss with every name, which is right for the few
// names of a schema or a facet list, but quadratic over a library: 10,000
// unknown ids in 16,500 cases took three minutes.
//
// A suggester is built once. For a set of at most smallSet names it gives
// exactly what DidYouMean gives. For a larger set it looks the miss's
// neighbours up in the set (each name one edit away: a character changed,
// added or removed, or two neighbours swapped), which finds every name at
// distance 1 and the swaps; a name further away is not suggested. The work
// per miss grows with the length of the miss, never with the set.
type suggester struct {
	names    []string
	set      map[string]bool
	alphabet []rune // every character of the names, for the neighbours
}

// smallSet is the size up to which a suggester compares a miss with every
// name: a vocabulary field or a list of facets.
const smallSet = 256

// maxSuggestLen is the length of the longest miss a suggestion is looked
// for: a longer one is no typo of a name (ids are 9 characters at most and
// slugs are short), and its neighbours would cost work for nothing.
const maxSuggestLen = 64

// suggestWork counts the names looked up and compared by every suggester,
// for the test that holds checking linear.
var suggestWork atomic.Int64

// newSuggester prepares suggestions among names.
func newSuggester(names []string) *suggester {
	s := &suggester{names: append([]string(nil), names...), set: make(map[string]bool, len(names))}
	seen := map[rune]bool{}
	for _, n := range names {
		s.set[n] = true
		for _, r := range n {
			if !seen[r] {
				seen[r] = true
				s.alphabet = append(s.alphabet, r)
			}
		}
	}
	sort.Slice(s.alphabet, func(i, j int) bool { return s.alphabet[i] < s.alphabet[j] })
	return s
}

// didYouMean returns " (did you mean "x"?)" for the name closest to miss, or
// "" when none is close enough (as the package's DidYouMean judges).
func (s *suggester) didYouMean(miss string) string {
	if s == nil {
		return ""
	}
	if len(s.names) <= smallSet {
		suggestWork.Add(int64(len(s.names)))
		return DidYouMean(miss, s.names)
	}
	if utf8.RuneCountInString(miss) > maxSuggestLen {
		return ""
	}
	var found []string
	s.neighbours(miss, func(n string) {
		if s.set[n] && n != miss {
			found = append(found, n)
		}
	})
	return DidYouMean(miss, found)
}

// neighbours calls f with every string one edit from miss.
func (s *suggester) neighbours(miss string, f func(string)) {
	r := []rune(miss)
	buf := make([]rune, 0, len(r)+1)
	try := func(b []rune) {
		suggestWork.Add(1)
		f(string(b))
	}
	for i := 0; i <= len(r); i++ {
		for _, c := range s.alphabet {
			// Added before r[i].
			buf = append(append(append(buf[:0], r[:i]...), c), r[i:]...)
			try(buf)
			// r[i] changed.
			if i < len(r) && c != r[i] {
				buf = append(append(append(buf[:0], r[:i]...), c), r[i+1:]...)
				try(buf)
			}
		}
		if i < len(r) {
			// r[i] removed.
			try(append(append(buf[:0], r[:i]...), r[i+1:]...))
		}
		if i+1 < len(r) && r[i] != r[i+1] {
			// r[i] and r[i+1] swapped.
			buf = append(buf[:0], r...)
			buf[i], buf[i+1] = buf[i+1], buf[i]
			try(buf)
		}
	}
}
