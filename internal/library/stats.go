package library

import (
	"sort"
	"strconv"

	"incidentlib/internal/cases"
)

// Stats describes a set of cases, for topic and list pages.
type Stats struct {
	Total int
	// Top holds the most common terms of every facet of cases.StatsFacets,
	// by facet name, most common first.
	Top           map[string][]TermCount
	Years         []TermCount // oldest first
	MedianDetect  *int        // minutes; nil when no case of the set knows it
	MedianResolve *int
	KnownDetect   int
	KnownResolve  int
}

// TermCount is a term id with how many cases of a set have it.
type TermCount struct {
	ID    string
	Count int
}

// statsTop is how many terms a statistics list names.
const statsTop = 5

func computeStats(cs []*cases.Case, voc *cases.Vocab) *Stats {
	facets := cases.StatsFacets()
	st := &Stats{Total: len(cs), Top: make(map[string][]TermCount, len(facets))}
	counts := make([]map[string]int, len(facets))
	for i := range counts {
		counts[i] = map[string]int{}
	}
	years := map[string]int{}
	var det, res []int
	for _, c := range cs {
		for i, f := range facets {
			f.Each(c, func(id string) {
				if f.HasTopic(id) {
					counts[i][id]++
				}
			})
		}
		if c.Date.Known() {
			years[strconv.Itoa(c.Date.Year)]++
		}
		if d := c.Timeline.DetectedAfter; d != nil {
			det = append(det, int(*d))
		}
		if d := c.Timeline.ResolvedAfter; d != nil {
			res = append(res, int(*d))
		}
	}
	for i, f := range facets {
		st.Top[f.Name] = top(counts[i], func(id string) int { return voc.Rank(f.Field, id) })
	}
	for y, n := range years {
		st.Years = append(st.Years, TermCount{y, n})
	}
	sort.Slice(st.Years, func(i, j int) bool { return st.Years[i].ID < st.Years[j].ID })
	st.MedianDetect, st.KnownDetect = median(det), len(det)
	st.MedianResolve, st.KnownResolve = median(res), len(res)
	return st
}

func top(m map[string]int, rank func(string) int) []TermCount {
	out := make([]TermCount, 0, len(m))
	for id, n := range m {
		out = append(out, TermCount{id, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		if ri, rj := rank(out[i].ID), rank(out[j].ID); ri != rj {
			return ri < rj
		}
		return out[i].ID < out[j].ID // terms outside a vocabulary
	})
	if len(out) > statsTop {
		out = out[:statsTop]
	}
	return out
}

// median returns the median of xs (the lower middle for an even count, so
// that it is a value some case really had), or nil for none.
func median(xs []int) *int {
	if len(xs) == 0 {
		return nil
	}
	sort.Ints(xs)
	m := xs[(len(xs)-1)/2]
	return &m
}
