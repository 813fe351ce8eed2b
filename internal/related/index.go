package related

import (
	"cmp"
	"math"
	"slices"
)

// Facets in the order a reason lists them, then facetCause, which no
// reason lists.
const (
	facetRoot = iota
	facetComponents
	facetContributing
	facetSymptoms
	facetWords
	// facetCause is a root cause and a component or domain together
	// ("software bug in the Ingress controller", "dependency failure on
	// AWS"): a term of its own, carried by the cases that have both,
	// weighed by its own rarity. A reason says it as "same root cause" and
	// the component, so it is not listed again.
	facetCause
	numFacets
)

// facetWeight says how much a shared term of each facet is worth before its
// rarity is taken into account.
//
//   - Root cause 1.0: the single answer to "why did this happen", and what
//     a reader of a related case most wants to compare. It weighed 1.5 once,
//     but a root cause is a broad answer with few values (df high, ln(N/df)
//     low), and at 1.5 "same cause" outranked two cases sharing a
//     mechanism in their components and words. TestJudgedPairs (in
//     internal/library) holds these weights to pairs an engineer judged.
//   - Components 1.0: what broke; a shared rare component ("the same
//     ingress controller") is what the seed pages show.
//   - Contributing factors 0.75: why it got worse; closer to the cause than a
//     symptom, but secondary to it.
//   - Symptoms 0.5: what was observed; latency and error rates follow from
//     unrelated failures, so sharing one says the least.
//   - Narrative words 0.6, their sum capped (see wordsCap): each is weak
//     alone (two stories can share a word by chance), but a mechanism that
//     no term names shows up as several rare words and phrases the two
//     stories both use ("cordoned", "ingress controller pods", "node
//     pool"), and those add up to the cap quickly.
//   - Root cause in a component or a domain 0.5: the relation the seed
//     pages head their lists with ("same root cause · shared Ingress
//     controller"). Summed apart, a common cause and a common component say
//     little each (both have high df), yet few cases have both; the pair
//     as a term of its own gets the weight of that rarity. Half weight,
//     because the cause and the component already count on their own.
var facetWeight = [numFacets]float64{1.0, 1.0, 0.75, 0.5, 0.6, 0.5}

// scale is the fixed-point unit of scores: integer sums are exact, so a
// pair's score does not depend on the order its terms were added in.
const scale = 1e6

// index is the library in the canonical order (rank 0 is the newest case)
// with its terms interned. Per-case term lists are stored flat, indexed by
// offset tables, to keep 100,000 cases at a handful of allocations.
type index struct {
	n        int
	commonDF int32
	wordsDF  int32
	byRank   []int // rank → position in the input
	ids      []string

	ownOff  []int32 // terms in the case's own order, facet by facet
	own     []int32
	rareOff []int32 // rare terms, sorted by id
	rare    []int32
	comOff  []int32 // common terms, sorted by id
	com     []int32

	facet  []uint8 // per term
	name   []string
	df     []int32
	weight []int64
	// wordsCap is the most the narrative words two cases share add to
	// their score: the weight of a component only the two of them have.
	wordsCap int64
	postOff  []int32 // per term: ranks of the cases carrying it, ascending
	post     []int32
}

func (ix *index) ownOf(r int32) []int32  { return ix.own[ix.ownOff[r]:ix.ownOff[r+1]] }
func (ix *index) rareOf(r int32) []int32 { return ix.rare[ix.rareOff[r]:ix.rareOff[r+1]] }
func (ix *index) comOf(r int32) []int32  { return ix.com[ix.comOff[r]:ix.comOff[r+1]] }
func (ix *index) postOf(t int32) []int32 { return ix.post[ix.postOff[t]:ix.postOff[t+1]] }

func (ix *index) isCommon(t int32) bool {
	if ix.facet[t] == facetWords {
		return ix.df[t] > ix.wordsDF
	}
	return ix.df[t] > ix.commonDF
}

type termKey struct {
	facet uint8
	name  string
}

func buildIndex(items []Item, opt Options) *index {
	ix := &index{n: len(items), commonDF: int32(opt.CommonDF), wordsDF: int32(opt.WordsDF)}
	ix.rank(items)
	ix.internTerms(items)
	ix.weigh()
	ix.fillPostings()
	ix.splitRare()
	return ix
}

// rank orders the cases newest first (byRank) and records their IDs in
// that order.
func (ix *index) rank(items []Item) {
	ix.byRank = make([]int, ix.n)
	for i := range ix.byRank {
		ix.byRank[i] = i
	}
	slices.SortFunc(ix.byRank, func(a, b int) int {
		// Newest first; the ID breaks ties between cases of the same day
		// and the input position between (invalid) duplicate IDs.
		if c := cmp.Compare(items[b].Date, items[a].Date); c != 0 {
			return c
		}
		if c := cmp.Compare(items[a].ID, items[b].ID); c != 0 {
			return c
		}
		return a - b
	})
	ix.ids = make([]string, ix.n)
	for r, i := range ix.byRank {
		ix.ids[r] = items[i].ID
	}
}

// internTerms gives every term an id and lists each case's own terms and
// every term's document frequency. Terms are interned while walking the
// cases in rank order, so term ids do not depend on the input order either
// (they affect no result, but it makes debugging output reproducible).
func (ix *index) internTerms(items []Item) {
	n := ix.n
	intern := make(map[termKey]int32)
	ix.ownOff = make([]int32, n+1)
	ix.own = make([]int32, 0, 8*n)
	add := func(start int, f uint8, name string) {
		if name == "" || name == "unknown" {
			return
		}
		k := termKey{f, name}
		t, ok := intern[k]
		if !ok {
			t = int32(len(ix.name))
			intern[k] = t
			ix.facet = append(ix.facet, f)
			ix.name = append(ix.name, name)
			ix.df = append(ix.df, 0)
		}
		if slices.Contains(ix.own[start:], t) {
			return // listed twice by the same case
		}
		ix.own = append(ix.own, t)
		ix.df[t]++
	}
	for r, i := range ix.byRank {
		it := &items[i]
		start := len(ix.own)
		add(start, facetRoot, it.RootCause)
		for _, s := range it.Components {
			add(start, facetComponents, s)
		}
		if it.RootCause != "" && it.RootCause != "unknown" {
			// A component and a domain may have the same id: the byte
			// after the cause tells them apart.
			for _, s := range it.Components {
				if s != "" && s != "unknown" {
					add(start, facetCause, it.RootCause+"\x00c"+s)
				}
			}
			for _, s := range it.Domains {
				if s != "" && s != "unknown" {
					add(start, facetCause, it.RootCause+"\x00d"+s)
				}
			}
		}
		for _, s := range it.Contributing {
			add(start, facetContributing, s)
		}
		for _, s := range it.Symptoms {
			add(start, facetSymptoms, s)
		}
		for _, s := range it.Words {
			add(start, facetWords, s)
		}
		ix.ownOff[r+1] = int32(len(ix.own))
	}
}

// weigh gives every term its weight: its facet's weight times its inverse
// document frequency, in fixed point; and sets the cap of shared words.
func (ix *index) weigh() {
	ix.weight = make([]int64, len(ix.name))
	for t := range ix.weight {
		idf := math.Log(float64(ix.n) / float64(ix.df[t]))
		ix.weight[t] = int64(math.Round(facetWeight[ix.facet[t]] * idf * scale))
	}
	ix.wordsCap = int64(math.Round(facetWeight[facetComponents] * max(0, math.Log(float64(ix.n)/2)) * scale))
}

// fillPostings lists the cases of every term, filled in rank order so each
// list is sorted by rank, which is also date order: neighbours in a list are
// the nearest cases by date.
func (ix *index) fillPostings() {
	nt := len(ix.name)
	ix.postOff = make([]int32, nt+1)
	for t := range nt {
		ix.postOff[t+1] = ix.postOff[t] + ix.df[t]
	}
	ix.post = make([]int32, len(ix.own))
	fill := slices.Clone(ix.postOff[:nt])
	for r := range ix.n {
		for _, t := range ix.ownOf(int32(r)) {
			ix.post[fill[t]] = int32(r)
			fill[t]++
		}
	}
}

// splitRare splits each case's terms into rare and common ones (see
// isCommon), each sorted by term id.
func (ix *index) splitRare() {
	n := ix.n
	ix.rareOff = make([]int32, n+1)
	ix.comOff = make([]int32, n+1)
	ix.rare = make([]int32, 0, len(ix.own))
	ix.com = make([]int32, 0)
	for r := range n {
		for _, t := range ix.ownOf(int32(r)) {
			if ix.isCommon(t) {
				ix.com = append(ix.com, t)
			} else {
				ix.rare = append(ix.rare, t)
			}
		}
		rs := ix.rare[ix.rareOff[r]:]
		slices.Sort(rs)
		cs := ix.com[ix.comOff[r]:]
		slices.Sort(cs)
		ix.rareOff[r+1] = int32(len(ix.rare))
		ix.comOff[r+1] = int32(len(ix.com))
	}
}

// sharedScore sums the weights of the terms in both sorted lists: those
// of the controlled terms and those of the narrative words apart.
func (ix *index) sharedScore(a, b []int32) (terms, words int64) {
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0] < b[0]:
			a = a[1:]
		case a[0] > b[0]:
			b = b[1:]
		default:
			if ix.facet[a[0]] == facetWords {
				words += ix.weight[a[0]]
			} else {
				terms += ix.weight[a[0]]
			}
			a, b = a[1:], b[1:]
		}
	}
	return terms, words
}

// score is a pair's score from the weights of the terms and of the words
// it shares.
func (ix *index) score(terms, words int64) int64 { return terms + min(words, ix.wordsCap) }

// pairScore is the full score of two cases.
func (ix *index) pairScore(a, b int32) int64 {
	t1, w1 := ix.sharedScore(ix.rareOf(a), ix.rareOf(b))
	t2, w2 := ix.sharedScore(ix.comOf(a), ix.comOf(b))
	return ix.score(t1+t2, w1+w2)
}
