// Package related owns the "related cases" of the library: for every case, a
// short list of other cases with the reason each one is related. The list is
// computed once per build and shared by both languages and by the static API;
// words are not this package's business, it returns term ids and the caller
// renders labels.
//
// # The rule
//
// Explicit links come first: a case's related list and its recurrence_of,
// read in both directions, so that when A names B, B also lists A. Every
// explicit link is kept, even beyond Options.Max, because an editor wrote it
// down and nothing written in the input is silently dropped.
//
// The remaining places, up to Options.Max links per case, are computed from
// the controlled terms the two cases share: root cause, components,
// contributing factors and symptoms. A shared term is worth
//
//	facet weight × ln(N / df)
//
// where N is the number of cases and df the number of cases carrying the
// term, so a component that three cases have says much more than a symptom
// that half the library has. A pair's score is the sum over its shared terms.
// Terms "" and "unknown" are never shared: two cases whose cause nobody knows
// are not alike for that reason.
//
// # Symmetry with a hard bound
//
// Relations are symmetric: if B is in A's list, A is in B's, with the same
// reason and score. Picking each case's own top Max and then adding the
// reverse links would break the bound (a popular case would collect dozens of
// back-links), so the computed links are chosen as a greedy maximum-weight
// b-matching instead: all candidate pairs are sorted best first, and a pair is
// accepted when both of its cases still have a free place. Every accepted pair
// gives both cases a link, so symmetry and the bound hold by construction. A
// case can end with fewer than Max computed links when all its candidates are
// already full of stronger links; that is the price of having both properties.
//
// # Cost
//
// Candidates come from an inverted index of cases by term, never from
// comparing every pair. A term carried by at most Options.CommonDF cases is
// "rare": every case sharing it becomes a candidate, which costs at most
// CommonDF per term a case carries. A term carried by more is "common":
// walking its posting list from each of its cases would cost df², so it does
// not propose candidates wholesale. It adds its weight to every candidate
// found through rarer terms, and it proposes only the Options.Window cases on
// each side of the case in its posting list, which is sorted by date: the
// cases nearest in time, so that a case with only common terms still gets
// neighbours. Each case keeps its best 3 × Max candidates for the matching,
// which sorts those pairs once. The work is therefore bounded by a constant
// per term occurrence plus a sort of at most 3 × Max × N pairs: it grows with
// the number of cases, not with its square. In a library where no term is
// carried by more than CommonDF cases (any library of up to CommonDF cases),
// every pair sharing a term is considered.
//
// # Groups
//
// A page shows links under one heading per reason ("same root cause · shared
// Ingress controller"); Groups splits a case's list that way.
//
// # Determinism
//
// Scores are kept in fixed point (millionths) while computing, so a sum does
// not depend on the order it was added up in and A→B scores exactly what B→A
// does. Cases are processed in a canonical order (newest date first, then
// ID), so the result does not depend on the order of the input slice either.
// Ties are broken by score, then newer date, then ID.
package related

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Item is what the computation needs from one case. The caller adapts its
// case model to this shape; term values are the vocabulary ids.
type Item struct {
	ID           string
	Date         string // YYYY-MM-DD; compared as text, so it must be zero-padded
	RootCause    string
	Components   []string
	Contributing []string
	Symptoms     []string
	Related      []string // explicit links by case ID
	RecurrenceOf string   // ID of the case this one is a recurrence of, or ""
}

// Kind says why a link exists. Its numeric order is the order links are
// listed in.
type Kind uint8

const (
	// RecurrenceOf: this case is a recurrence of the linked one.
	RecurrenceOf Kind = iota + 1
	// Recurred: the linked case is a recurrence of this one (the other side of
	// RecurrenceOf).
	Recurred
	// Explicit: one of the two cases names the other in its related list.
	Explicit
	// Computed: chosen from the shared terms.
	Computed
)

var kindNames = [...]string{"", "recurrence_of", "recurred", "explicit", "computed"}

// String returns the kind as the API writes it ("recurrence_of", "recurred",
// "explicit", "computed").
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// MarshalText lets the API write a Kind as its name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Reason is what two cases have in common. Term lists hold vocabulary ids in
// the order the case that owns the list gives them, so two links of one case
// with the same shared terms have equal lists.
type Reason struct {
	SameRootCause bool
	Components    []string
	Contributing  []string
	Symptoms      []string
}

// Equal reports whether two reasons name the same shared terms.
func (r Reason) Equal(o Reason) bool {
	return r.SameRootCause == o.SameRootCause &&
		slices.Equal(r.Components, o.Components) &&
		slices.Equal(r.Contributing, o.Contributing) &&
		slices.Equal(r.Symptoms, o.Symptoms)
}

// Link is one related case as seen from the case whose list it is in. Reason
// and Score are filled for explicit links too (a Score of 0 means the editor
// linked cases that share no term).
type Link struct {
	ID   string
	Kind Kind
	Reason
	Score float64
}

// Options tunes the computation. A zero field takes its default.
type Options struct {
	// Max is the number of links per case (default 6). Explicit links count
	// against it but are never dropped.
	Max int
	// CommonDF is the document frequency above which a term no longer finds
	// candidates by itself (default 256).
	CommonDF int
	// Window is how many cases on each side, nearest by date, a common term
	// proposes as candidates (default 8).
	Window int
}

// Default values of Options. Max matches what a case page shows; CommonDF
// keeps every term of a library of a few hundred cases exact while bounding
// the work per term; Window gives a case with only common terms as many
// candidates as the matching looks at.
const (
	DefaultMax      = 6
	DefaultCommonDF = 256
	DefaultWindow   = 8
)

func (o Options) withDefaults() Options {
	if o.Max <= 0 {
		o.Max = DefaultMax
	}
	if o.CommonDF <= 0 {
		o.CommonDF = DefaultCommonDF
	}
	if o.Window <= 0 {
		o.Window = DefaultWindow
	}
	return o
}

// Facets in the order a reason lists them.
const (
	facetRoot = iota
	facetComponents
	facetContributing
	facetSymptoms
	numFacets
)

// facetWeight says how much a shared term of each facet is worth before its
// rarity is taken into account.
//
//   - Root cause 1.5: it is the single answer to "why did this happen", the
//     thing a reader of a related case most wants to compare. Root-cause
//     vocabularies are small, so its df is high and ln(N/df) low; the higher
//     facet weight keeps "same cause" from being drowned by one shared symptom.
//   - Components 1.0: the reference point, what broke; a shared rare component
//     ("the same ingress controller") is what the seed pages show.
//   - Contributing factors 0.75: why it got worse; closer to the cause than a
//     symptom, but secondary to it.
//   - Symptoms 0.5: what was observed; latency and error rates follow from
//     unrelated failures, so sharing one says the least.
var facetWeight = [numFacets]float64{1.5, 1.0, 0.75, 0.5}

// scale is the fixed-point unit of scores: integer sums are exact, so a
// pair's score does not depend on the order its terms were added in.
const scale = 1e6

// candidatesPerMax is how many candidates per place in its list a case
// brings to the matching. The matching can only pair two cases when one of
// them proposed the other; three per place leaves room for the partners that
// fill up with stronger links first.
const candidatesPerMax = 3

// Compute returns, for every item, its related links: explicit ones first
// (RecurrenceOf, Recurred, Explicit), then computed ones, each group best
// first. The result is aligned with items: result[i] belongs to items[i].
//
// IDs are expected to be unique (the check stage enforces it); references to
// unknown IDs and to the case itself are ignored.
func Compute(items []Item, opt Options) [][]Link {
	opt = opt.withDefaults()
	ix := buildIndex(items, opt)
	exp := ix.explicit(items)
	top := ix.candidates(exp, opt)
	comp := ix.match(top, exp, opt.Max)
	return ix.links(exp, comp)
}

// index is the library in the canonical order (rank 0 is the newest case)
// with its terms interned. Per-case term lists are stored flat, indexed by
// offset tables, to keep 100,000 cases at a handful of allocations.
type index struct {
	n        int
	commonDF int32
	byRank   []int // rank → position in the input
	ids      []string

	ownOff  []int32 // terms in the case's own order, facet by facet
	own     []int32
	rareOff []int32 // rare terms, sorted by id
	rare    []int32
	comOff  []int32 // common terms, sorted by id
	com     []int32

	facet   []uint8 // per term
	name    []string
	df      []int32
	weight  []int64
	postOff []int32 // per term: ranks of the cases carrying it, ascending
	post    []int32
}

func (ix *index) ownOf(r int32) []int32  { return ix.own[ix.ownOff[r]:ix.ownOff[r+1]] }
func (ix *index) rareOf(r int32) []int32 { return ix.rare[ix.rareOff[r]:ix.rareOff[r+1]] }
func (ix *index) comOf(r int32) []int32  { return ix.com[ix.comOff[r]:ix.comOff[r+1]] }
func (ix *index) postOf(t int32) []int32 { return ix.post[ix.postOff[t]:ix.postOff[t+1]] }
func (ix *index) isCommon(t int32) bool  { return ix.df[t] > ix.commonDF }

type termKey struct {
	facet uint8
	name  string
}

func buildIndex(items []Item, opt Options) *index {
	ix := &index{n: len(items), commonDF: int32(opt.CommonDF)}
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
		for _, s := range it.Contributing {
			add(start, facetContributing, s)
		}
		for _, s := range it.Symptoms {
			add(start, facetSymptoms, s)
		}
		ix.ownOff[r+1] = int32(len(ix.own))
	}
}

// weigh gives every term its weight: its facet's weight times its inverse
// document frequency, in fixed point.
func (ix *index) weigh() {
	ix.weight = make([]int64, len(ix.name))
	for t := range ix.weight {
		idf := math.Log(float64(ix.n) / float64(ix.df[t]))
		ix.weight[t] = int64(math.Round(facetWeight[ix.facet[t]] * idf * scale))
	}
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

// sharedScore sums the weights of the terms in both sorted lists.
func (ix *index) sharedScore(a, b []int32) int64 {
	var s int64
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0] < b[0]:
			a = a[1:]
		case a[0] > b[0]:
			b = b[1:]
		default:
			s += ix.weight[a[0]]
			a, b = a[1:], b[1:]
		}
	}
	return s
}

// pairScore is the full score of two cases.
func (ix *index) pairScore(a, b int32) int64 {
	return ix.sharedScore(ix.rareOf(a), ix.rareOf(b)) + ix.sharedScore(ix.comOf(a), ix.comOf(b))
}

// explicitLinks holds every case's explicit links, sorted in list order,
// indexed by rank through off.
type explicitLinks struct {
	off   []int32
	links []edgeTo
}

type edgeTo struct {
	to    int32
	kind  Kind
	score int64
}

func (e *explicitLinks) of(r int32) []edgeTo { return e.links[e.off[r]:e.off[r+1]] }

func (ix *index) explicit(items []Item) *explicitLinks {
	rankOf := make(map[string]int32, ix.n)
	for r := ix.n - 1; r >= 0; r-- {
		rankOf[ix.ids[r]] = int32(r) // with duplicate IDs the newest wins
	}
	type arc struct {
		from int32
		edgeTo
	}
	var arcs []arc
	link := func(a int32, id string, there, back Kind) {
		b, ok := rankOf[id]
		if !ok || b == a {
			return
		}
		arcs = append(arcs, arc{a, edgeTo{to: b, kind: there}}, arc{b, edgeTo{to: a, kind: back}})
	}
	for r, i := range ix.byRank {
		it := &items[i]
		for _, id := range it.Related {
			link(int32(r), id, Explicit, Explicit)
		}
		if it.RecurrenceOf != "" {
			link(int32(r), it.RecurrenceOf, RecurrenceOf, Recurred)
		}
	}
	// One link per pair and direction; when a pair is linked several ways the
	// strongest kind (lowest value) names it.
	slices.SortFunc(arcs, func(x, y arc) int {
		return cmp.Or(cmp.Compare(x.from, y.from), cmp.Compare(x.to, y.to), cmp.Compare(x.kind, y.kind))
	})
	arcs = slices.CompactFunc(arcs, func(x, y arc) bool { return x.from == y.from && x.to == y.to })

	e := &explicitLinks{off: make([]int32, ix.n+1), links: make([]edgeTo, len(arcs))}
	for k, a := range arcs {
		a.score = ix.pairScore(a.from, a.to)
		e.links[k] = a.edgeTo
		e.off[a.from+1]++
	}
	for r := range ix.n {
		e.off[r+1] += e.off[r]
		slices.SortFunc(e.of(int32(r)), func(x, y edgeTo) int {
			return cmp.Or(cmp.Compare(x.kind, y.kind), cmp.Compare(y.score, x.score), cmp.Compare(x.to, y.to))
		})
	}
	return e
}

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
	// instead of a merge of two lists.
	comW  []int64
	cands []int32
}

type slot struct {
	stamp int32
	acc   int64
}

func newScratch(n, terms int) *scratch {
	return &scratch{slots: make([]slot, n), comW: make([]int64, terms)}
}

func (ix *index) candidatesOf(a int32, s *scratch, exp *explicitLinks, window int, top *topList) {
	stamp := a + 1
	s.slots[a].stamp = -stamp
	for _, e := range exp.of(a) {
		s.slots[e.to].stamp = -stamp // already linked: not a candidate
	}
	s.cands = s.cands[:0]
	// Rare terms: everyone sharing one is a candidate, and its weight is
	// added on the way.
	for _, t := range ix.rareOf(a) {
		w := ix.weight[t]
		for _, b := range ix.postOf(t) {
			sl := &s.slots[b]
			switch sl.stamp {
			case stamp:
				sl.acc += w
			case -stamp:
			default:
				sl.stamp, sl.acc = stamp, w
				s.cands = append(s.cands, b)
			}
		}
	}
	// Common terms: only the nearest cases by date are proposed. Being
	// within Window positions of each other is symmetric, so a finds b
	// exactly when b finds a. The weight of common terms is added below,
	// for every candidate however it was found.
	comA := ix.comOf(a)
	var comMax int64
	for _, t := range comA {
		s.comW[t] = ix.weight[t]
		comMax += ix.weight[t]
		p := ix.postOf(t)
		i, _ := slices.BinarySearch(p, a)
		for _, b := range p[max(0, i-window):min(len(p), i+window+1)] {
			sl := &s.slots[b]
			if sl.stamp != stamp && sl.stamp != -stamp {
				sl.stamp, sl.acc = stamp, 0
				s.cands = append(s.cands, b)
			}
		}
	}

	base := int(a) * top.l
	to := top.to[base : base+top.l]
	sc := top.score[base : base+top.l]
	k := 0
	for _, b := range s.cands {
		score := s.slots[b].acc
		// Keep the list sorted best first: higher score, then lower rank
		// (newer date, then ID). Once it is full, most candidates cannot
		// beat the last entry even with every common term of a, and are
		// dropped before their common terms are looked at.
		if k == top.l && !better(score+comMax, b, sc[k-1], to[k-1]) {
			continue
		}
		for _, t := range ix.comOf(b) {
			score += s.comW[t]
		}
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
	top.count[a] = int32(k)
	for _, t := range comA {
		s.comW[t] = 0
	}
}

func better(s1 int64, r1 int32, s2 int64, r2 int32) bool {
	return s1 > s2 || s1 == s2 && r1 < r2
}

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
	var end [numFacets]int
	for f := range end {
		end[f] = begin
	}
	for _, t := range own {
		if rb.mark[t] == rb.stamp {
			rb.buf = append(rb.buf, ix.name[t])
			for f := int(ix.facet[t]); f < numFacets; f++ {
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
	return r
}

func sumInt32(s []int32) int64 {
	var t int64
	for _, v := range s {
		t += int64(v)
	}
	return t
}

// Group is a run of links that share one reason, as a page shows them under
// one heading ("same root cause · both involve Ingress controller").
type Group struct {
	Kind Kind
	Reason
	Links []Link
}

// Groups gathers one case's links by identical reason: same kind, same root
// cause flag and the same shared terms. Groups come in the order of their
// first link, and links keep their order inside a group. The kind is part of
// the key so that explicit links stay ahead of computed ones and a
// recurrence is never presented as mere similarity.
func Groups(links []Link) []Group {
	var gs []Group
next:
	for _, l := range links {
		for i := range gs {
			if gs[i].Kind == l.Kind && gs[i].Reason.Equal(l.Reason) {
				gs[i].Links = append(gs[i].Links, l)
				continue next
			}
		}
		gs = append(gs, Group{Kind: l.Kind, Reason: l.Reason, Links: []Link{l}})
	}
	return gs
}
