package search

import (
	"slices"
	"sort"
	"strings"

	"incidentlib/internal/cases"
)

// writeFacets writes what the page shows before anything is typed (facets:
// every term with its labels and count) and, per facet, the documents of
// every term (f/FACET), which filters and the counts of a result set need.
// It returns the facets written, in order.
func writeFacets(docs []Doc, labels Labels, out *files) ([]string, error) {
	facetNames := facetList(docs)
	summary := make([]facetSummary, 0, len(facetNames))
	for _, f := range facetNames {
		fd := facetFile(f, docs, labels[f])
		sum := facetSummary{Facet: f, All: len(fd.Terms)}
		for _, t := range fd.Terms {
			sum.Terms = append(sum.Terms, facetSummaryTerm{ID: t.ID, Label: t.Label, Count: t.Count})
		}
		if cf := cases.FacetByName(f); cf != nil && cf.Order == cases.NewestFirst {
			// The page lists years newest first.
			slices.SortFunc(sum.Terms, func(a, b facetSummaryTerm) int { return strings.Compare(b.ID, a.ID) })
		}
		sum.Terms = sum.Terms[:min(len(sum.Terms), summaryTerms)]
		summary = append(summary, sum)
		if err := out.value(path(indexLayout.Facets, f), fd); err != nil {
			return nil, err
		}
	}
	return facetNames, out.value("facets", summary)
}

// facetSummary is a facet as the idle search page shows it: the first
// summaryTerms of its terms in the page's order, and how many it has in all
// (the page loads the facet's file for the others when asked to show all).
type facetSummary struct {
	Facet string             `json:"facet"`
	All   int                `json:"all"`
	Terms []facetSummaryTerm `json:"terms"`
}

// summaryTerms is FACET_SHOWN in search.js: how many terms of a facet the
// page shows before "Show all".
const summaryTerms = 8

type facetSummaryTerm struct {
	ID    string    `json:"id"`
	Label [2]string `json:"l"`
	Count int       `json:"n"`
}

type facetTerm struct {
	ID    string    `json:"id"`
	Label [2]string `json:"l"`
	Count int       `json:"n"`
	Docs  []int     `json:"d"`
}

type facetData struct {
	Facet string      `json:"facet"`
	Terms []facetTerm `json:"terms"`
}

// facetList returns the facets the documents use: the known ones in page
// order, then any others by name.
func facetList(docs []Doc) []string {
	seen := map[string]bool{}
	for i := range docs {
		for f, ids := range docs[i].Facets {
			if len(ids) > 0 {
				seen[f] = true
			}
		}
	}
	var out []string
	for _, f := range cases.FacetNames() {
		if seen[f] {
			out = append(out, f)
			delete(seen, f)
		}
	}
	var rest []string
	for f := range seen {
		rest = append(rest, f)
	}
	sort.Strings(rest)
	return append(out, rest...)
}

func facetFile(f string, docs []Doc, labels map[string][2]string) facetData {
	byTerm := map[string][]int{}
	for i := range docs {
		seen := map[string]bool{}
		for _, id := range docs[i].Facets[f] {
			if !seen[id] {
				seen[id] = true
				byTerm[id] = append(byTerm[id], i)
			}
		}
	}
	out := facetData{Facet: f, Terms: []facetTerm{}}
	for id, ds := range byTerm {
		lab, ok := labels[id]
		if !ok && f == cases.Orgs.Name {
			// Organisations have no vocabulary; the cases name them.
			lab, ok = docs[ds[0]].Org, true
		}
		if !ok {
			lab = [2]string{id, id}
		}
		deltas := make([]int, len(ds))
		prev := 0
		for k, d := range ds {
			deltas[k] = d - prev
			prev = d
		}
		out.Terms = append(out.Terms, facetTerm{ID: id, Label: lab, Count: len(ds), Docs: deltas})
	}
	sort.Slice(out.Terms, func(i, j int) bool {
		a, b := out.Terms[i], out.Terms[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return a.ID < b.ID
	})
	return out
}
