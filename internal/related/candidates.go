package related

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// candidatesPerMax is how many candidates per place in its list a case
// brings to the matching. The matching can only pair two cases when one of
// them proposed the other; three per place leaves room for the partners that
// fill up with stronger links first.
const candidatesPerMax = 3

// topList is every case's best candidates, candidatesPerMax × Max a case,
// stored flat.
type topList struct {
	l     int
	to    []int32
	score []int64
	count []int32
}

// candidates finds, for every case, its best computed candidates. The work is
// split over GOMAXPROCS workers; each case's result goes to its own slot, so
// the outcome does not depend on scheduling.
func (ix *index) candidates(exp *explicitLinks, opt Options) *topList {
	l := candidatesPerMax * opt.Max
	top := &topList{
		l:     l,
		to:    make([]int32, ix.n*l),
		score: make([]int64, ix.n*l),
		count: make([]int32, ix.n),
	}
	const block = 512
	workers := min(runtime.GOMAXPROCS(0), (ix.n+block-1)/block)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			s := newScratch(ix.n, len(ix.name))
			for {
				lo := int(next.Add(block)) - block
				if lo >= ix.n {
					return
				}
				for r := lo; r < min(lo+block, ix.n); r++ {
					ix.candidatesOf(int32(r), s, exp, opt.Window, top)
				}
			}
		})
	}
	wg.Wait()
	return top
}

// scratch is one worker's per-case working memory.
type scratch struct {
	// slots is indexed by rank. A stamp of a+1 means the slot holds case
	// a's running score for that candidate, -(a+1) that the case is not a
	// candidate of a; any other value is stale, so nothing is cleared
	// between cases. Stamp and score share a slot so that visiting a
	// candidate touches one cache line, not three.
	slots []slot
	// comW holds the current case's weight for each of its common terms and
	// zero elsewhere, so that a candidate's common score is a few loads
	// instead of a merge of two lists. A narrative word's is negated, so
	// that it goes to the words, whose sum is capped.
	comW  []int64
	cands []int32
}

type slot struct {
	stamp int32
	acc   int64 // the weight of the shared controlled terms so far
	accW  int64 // and of the shared narrative words
}

func newScratch(n, terms int) *scratch {
	return &scratch{slots: make([]slot, n), comW: make([]int64, terms)}
}

// candidatesOf gathers case a's candidates (every case sharing a term with
// it but a itself and the cases it already links) in s and keeps the best
// of them in a's row of top.
func (ix *index) candidatesOf(a int32, s *scratch, exp *explicitLinks, window int, top *topList) {
	stamp := a + 1
	s.slots[a].stamp = -stamp
	for _, e := range exp.of(a) {
		s.slots[e.to].stamp = -stamp // already linked: not a candidate
	}
	s.cands = s.cands[:0]
	ix.addRare(a, s)
	comMax := ix.addCommon(a, s, window)
	top.count[a] = int32(ix.keepBest(a, s, comMax, top))
	for _, t := range ix.comOf(a) {
		s.comW[t] = 0
	}
}

// addRare makes everyone sharing one of a's rare terms a candidate, and
// adds the term's weight on the way.
func (ix *index) addRare(a int32, s *scratch) {
	stamp := a + 1
	for _, t := range ix.rareOf(a) {
		w, isWord := ix.weight[t], ix.facet[t] == facetWords
		for _, b := range ix.postOf(t) {
			sl := &s.slots[b]
			switch sl.stamp {
			case stamp:
			case -stamp:
				continue
			default:
				sl.stamp, sl.acc, sl.accW = stamp, 0, 0
				s.cands = append(s.cands, b)
			}
			if isWord {
				sl.accW += w
			} else {
				sl.acc += w
			}
		}
	}
}

// addCommon proposes, for each of a's common terms, only the nearest cases
// by date. Being within window positions of each other is symmetric, so a
// finds b exactly when b finds a. The weight of common terms is added in
// keepBest, for every candidate however it was found; addCommon notes
// a's weight for each in s.comW and returns their sum.
func (ix *index) addCommon(a int32, s *scratch, window int) (comMax int64) {
	stamp := a + 1
	for _, t := range ix.comOf(a) {
		s.comW[t] = ix.weight[t]
		comMax += ix.weight[t]
		if ix.facet[t] == facetWords {
			s.comW[t] = -ix.weight[t] // negative: a word's, added to the words
		}
		p := ix.postOf(t)
		i, _ := slices.BinarySearch(p, a)
		for _, b := range p[max(0, i-window):min(len(p), i+window+1)] {
			sl := &s.slots[b]
			if sl.stamp != stamp && sl.stamp != -stamp {
				sl.stamp, sl.acc, sl.accW = stamp, 0, 0
				s.cands = append(s.cands, b)
			}
		}
	}
	return comMax
}

// keepBest scores a's candidates and keeps the best top.l of them in a's
// row of top, best first; it returns how many it kept.
func (ix *index) keepBest(a int32, s *scratch, comMax int64, top *topList) int {
	base := int(a) * top.l
	to := top.to[base : base+top.l]
	sc := top.score[base : base+top.l]
	k := 0
	for _, b := range s.cands {
		terms, words := s.slots[b].acc, s.slots[b].accW
		// Keep the list sorted best first: higher score, then lower rank
		// (newer date, then ID). Once it is full, most candidates cannot
		// beat the last entry even with every common term of a, and are
		// dropped before their common terms are looked at (the cap on
		// words only lowers a score, so the bound holds).
		if k == top.l && !better(terms+words+comMax, b, sc[k-1], to[k-1]) {
			continue
		}
		for _, t := range ix.comOf(b) {
			if w := s.comW[t]; w >= 0 {
				terms += w
			} else {
				words -= w
			}
		}
		score := ix.score(terms, words)
		if score <= 0 || k == top.l && !better(score, b, sc[k-1], to[k-1]) {
			continue
		}
		j := min(k, top.l-1)
		for j > 0 && better(score, b, sc[j-1], to[j-1]) {
			sc[j], to[j] = sc[j-1], to[j-1]
			j--
		}
		sc[j], to[j] = score, b
		if k < top.l {
			k++
		}
	}
	return k
}

func better(s1 int64, r1 int32, s2 int64, r2 int32) bool {
	return s1 > s2 || s1 == s2 && r1 < r2
}
