package library

import (
	"sort"
	"strconv"
	"sync"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
)

// Topic is one term of a facet with the cases that carry it.
type Topic struct {
	Facet       string
	ID          string
	Label       cases.Bilingual
	Description cases.Bilingual
	Cases       []*cases.Case // newest first
	stats       *Stats
	statsOnce   sync.Once
	voc         *cases.Vocab
}

// Stats returns the statistics of the topic's cases, computed on first use:
// a build computes them in its render workers, and the preview server only
// for the topics somebody looks at.
func (t *Topic) Stats() *Stats {
	t.statsOnce.Do(func() { t.stats = computeStats(t.Cases, t.voc) })
	return t.stats
}

// FacetTopics are the topics of one facet (cases.Facet) in this library,
// in display order: only terms that some case has.
type FacetTopics struct {
	Name   string
	Topics []*Topic // only terms that have cases
	byID   map[string]*Topic
}

// Topic returns the facet's topic with the given id, or nil.
func (f *FacetTopics) Topic(id string) *Topic { return f.byID[id] }

// ownLabel is the label of a term outside the vocabulary: an organisation's
// name as its first case writes it, a year, or the term's id.
func ownLabel(f *cases.Facet, id string, c *cases.Case, voc *cases.Vocab) cases.Bilingual {
	switch f {
	case cases.Products:
		if p, ok := voc.Product(id); ok {
			return p.Label
		}
	case cases.Years:
		if y, err := strconv.Atoi(id); err == nil {
			return cases.Bilingual{En: l10n.Year("en", y), Ko: l10n.Year("ko", y)}
		}
	case cases.Orgs:
		return c.OrgName()
	}
	return cases.Bilingual{En: id, Ko: id}
}

// Topics are the facets of a library by URL name.
type Topics map[string]*FacetTopics

// SearchLabels are the labels of every facet's topics as the site shows
// them, as search.Labels takes them. An organisation's label is its name
// as the case pages show it (HubSpot in both languages); its Korean
// spelling in vocab.json only finds it, as each document's OrgAlias.
func (ts Topics) SearchLabels() map[string]map[string][2]string {
	out := map[string]map[string][2]string{}
	for _, f := range cases.FacetNames() {
		m := map[string][2]string{}
		for _, t := range ts[f].Topics {
			m[t.ID] = [2]string{t.Label.En, t.Label.Ko}
		}
		out[f] = m
	}
	return out
}

// deriveTopics groups cases by every facet in one pass over the cases.
func deriveTopics(lib *cases.Library) Topics {
	facets := Topics{}
	for _, cf := range cases.Facets {
		f := &FacetTopics{Name: cf.Name, byID: map[string]*Topic{}}
		facets[cf.Name] = f
		// Vocabulary facets list their terms in the vocabulary's order.
		if cf.Controlled {
			for _, t := range lib.Vocab.Terms(cf.Field) {
				f.byID[t.ID] = &Topic{Facet: cf.Name, ID: t.ID, Label: t.Label, Description: t.Description, voc: &lib.Vocab}
			}
		}
	}
	for _, c := range lib.Cases { // already newest first, so topic lists are too
		c.EachTerm(func(cf *cases.Facet, id string) {
			f := facets[cf.Name]
			t := f.byID[id]
			if t == nil {
				if cf.Controlled || !cf.HasTopic(id) {
					return // "unknown" severity and the like have no topic page
				}
				t = &Topic{Facet: cf.Name, ID: id, Label: ownLabel(cf, id, c, &lib.Vocab), voc: &lib.Vocab}
				f.byID[id] = t
			}
			t.Cases = append(t.Cases, c)
		})
	}
	for _, cf := range cases.Facets {
		f := facets[cf.Name]
		for _, t := range f.byID {
			if len(t.Cases) > 0 {
				f.Topics = append(f.Topics, t)
			}
		}
		sortTopics(cf, f, lib)
	}
	return facets
}

// Largest returns up to n topics of f with the most cases, ties in display
// order.
func (f *FacetTopics) Largest(n int) []*Topic {
	ts := append([]*Topic(nil), f.Topics...)
	sort.SliceStable(ts, func(i, j int) bool { return len(ts[i].Cases) > len(ts[j].Cases) })
	if len(ts) > n {
		ts = ts[:n]
	}
	return ts
}
