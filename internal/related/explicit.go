package related

import (
	"cmp"
	"slices"
)

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
