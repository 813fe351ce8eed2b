package related

import "slices"

type edge struct {
	score  int64
	lo, hi int32
}

// computedLinks holds every case's accepted computed partners, best first,
// max a case, stored flat.
type computedLinks struct {
	max   int
	to    []int32
	score []int64
	count []int32
}

func (c *computedLinks) of(r int32) ([]int32, []int64) {
	b := int(r) * c.max
	k := int(c.count[r])
	return c.to[b : b+k], c.score[b : b+k]
}

// match runs the greedy b-matching over the candidate pairs.
func (ix *index) match(top *topList, exp *explicitLinks, maxLinks int) *computedLinks {
	edges := make([]edge, 0, sumInt32(top.count))
	for a := range int32(ix.n) {
		base := int(a) * top.l
		for j := range int(top.count[a]) {
			b := top.to[base+j]
			edges = append(edges, edge{top.score[base+j], min(a, b), max(a, b)})
		}
	}
	// Best pair first; among equal scores the pair with the newest case.
	// A pair proposed by both of its cases appears twice, side by side.
	slices.SortFunc(edges, func(x, y edge) int {
		// Written out rather than with cmp.Or, which evaluates every
		// comparison: this runs millions of times on a large library.
		switch {
		case x.score != y.score:
			if x.score > y.score {
				return -1
			}
			return 1
		case x.lo != y.lo:
			return int(x.lo - y.lo)
		default:
			return int(x.hi - y.hi)
		}
	})
	edges = slices.Compact(edges)

	c := &computedLinks{
		max:   maxLinks,
		to:    make([]int32, ix.n*maxLinks),
		score: make([]int64, ix.n*maxLinks),
		count: make([]int32, ix.n),
	}
	free := make([]int32, ix.n)
	for r := range int32(ix.n) {
		free[r] = max(0, int32(maxLinks)-(exp.off[r+1]-exp.off[r]))
	}
	put := func(a, b int32, s int64) {
		k := int(a)*maxLinks + int(c.count[a])
		c.to[k], c.score[k] = b, s
		c.count[a]++
		free[a]--
	}
	// Edges arrive by score, then by partner rank, so each case's list comes
	// out already in display order.
	for _, e := range edges {
		if free[e.lo] > 0 && free[e.hi] > 0 {
			put(e.lo, e.hi, e.score)
			put(e.hi, e.lo, e.score)
		}
	}
	return c
}

// links turns the chosen partners into Links, aligned with the input.
func (ix *index) links(exp *explicitLinks, comp *computedLinks) [][]Link {
	out := make([][]Link, ix.n)
	all := make([]Link, len(exp.links)+int(sumInt32(comp.count)))
	rb := reasonBuilder{ix: ix, mark: make([]int32, len(ix.name))}
	k := 0
	for a := range int32(ix.n) {
		start := k
		for _, e := range exp.of(a) {
			all[k] = Link{ID: ix.ids[e.to], Kind: e.kind, Reason: rb.reason(a, e.to), Score: float64(e.score) / scale}
			k++
		}
		to, sc := comp.of(a)
		for j, b := range to {
			all[k] = Link{ID: ix.ids[b], Kind: Computed, Reason: rb.reason(a, b), Score: float64(sc[j]) / scale}
			k++
		}
		if k > start {
			out[ix.byRank[a]] = all[start:k:k]
		}
	}
	return out
}

// reasonBuilder writes the shared-term lists of many links into a few large
// chunks of strings instead of one small slice per list.
type reasonBuilder struct {
	ix    *index
	mark  []int32 // per term: stamp of the link whose other case has it
	stamp int32
	buf   []string // current chunk; lists are carved from it
}

const reasonChunk = 1 << 14

// reason lists what a shares with b, each facet's terms in a's own order.
func (rb *reasonBuilder) reason(a, b int32) Reason {
	ix := rb.ix
	rb.stamp++
	for _, t := range ix.ownOf(b) {
		rb.mark[t] = rb.stamp
	}
	own := ix.ownOf(a)
	if cap(rb.buf)-len(rb.buf) < len(own) {
		rb.buf = make([]string, 0, max(reasonChunk, len(own)))
	}
	// Terms come facet by facet, so each facet's shared terms are one run
	// of buf: facet f's run ends at end[f] and starts where f-1's ended.
	begin := len(rb.buf)
	var end [facetCause]int
	for f := range end {
		end[f] = begin
	}
	for _, t := range own {
		if rb.mark[t] == rb.stamp && ix.facet[t] != facetCause {
			rb.buf = append(rb.buf, ix.name[t])
			for f := int(ix.facet[t]); f < facetCause; f++ {
				end[f] = len(rb.buf)
			}
		}
	}
	part := func(f int) []string {
		if end[f] == end[f-1] {
			return nil
		}
		return rb.buf[end[f-1]:end[f]:end[f]]
	}
	var r Reason
	r.SameRootCause = end[facetRoot] > begin
	r.Components = part(facetComponents)
	r.Contributing = part(facetContributing)
	r.Symptoms = part(facetSymptoms)
	r.Words = part(facetWords)
	return r
}

func sumInt32(s []int32) int64 {
	var t int64
	for _, v := range s {
		t += int64(v)
	}
	return t
}
