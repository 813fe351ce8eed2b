package search

import (
	"slices"
	"strconv"
)

// How a term's postings are written in a bucket file: a JSON array of the
// distinct weights of the term (termWeight: the reader multiplies them by
// the term's idf), most frequent first (ties by value), and a JSON string
// of one code per posting, [[s0, s1, …], "codes"]. A posting of document d
// with weight table[i], after a posting of document p (p = -1
// before the first), has the number (d-p-1)·len(table) + i, written in
// base 32, lowest digit first, each digit a character of postingDigits:
// the first 32 characters end a number, the last 32 carry a digit with more
// to come.
//
// Weights repeat (a term has a few dozen at most, as they depend only on
// its frequency in a case and the case's length) and gaps are small in
// the long lists that cost the most, so a common posting is one character.
// At 100,000 generated cases the postings of 로드 went from 45.8 kB gzipped
// as decimal pairs to 31.4 kB; rare terms cost about what they did.
const postingDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// scoreTable is the reusable state of appendPostings: by score (scores
// are small positive numbers, weights ×scoreScale), how often it occurs and
// its place in the table.
type scoreTable struct {
	freq  []int
	index []int
	order []int32
}

// appendPostings appends the postings ps, sorted by document, as the pair
// described above, and returns the buffer and the table to reuse.
func appendPostings(b []byte, ps []posting, t scoreTable) ([]byte, scoreTable) {
	t.order = t.order[:0]
	for _, p := range ps {
		for int(p.score) >= len(t.freq) {
			t.freq = append(t.freq, 0)
			t.index = append(t.index, 0)
		}
		if t.freq[p.score] == 0 {
			t.order = append(t.order, p.score)
		}
		t.freq[p.score]++
	}
	slices.SortFunc(t.order, func(a, b int32) int {
		if fa, fb := t.freq[a], t.freq[b]; fa != fb {
			return fb - fa
		}
		return int(a - b)
	})
	b = append(b, '[', '[')
	for i, s := range t.order {
		t.index[s] = i
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(s), 10)
	}
	b = append(b, "],\""...)
	n := uint64(len(t.order))
	prev := int32(-1)
	for _, p := range ps {
		v := uint64(p.doc-prev-1)*n + uint64(t.index[p.score])
		for v >= 32 {
			b = append(b, postingDigits[32+v%32])
			v /= 32
		}
		b = append(b, postingDigits[v])
		prev = p.doc
	}
	for _, s := range t.order {
		t.freq[s] = 0
	}
	return append(b, "\"]"...), t
}
