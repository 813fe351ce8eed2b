package site

import (
	"slices"

	"incidentlib/internal/cases"
	"incidentlib/internal/related"
)

// RelGroup is related cases listed under one heading: the same kind of link
// and the same answer to "same root cause?", with the shared terms of all
// its cases joined for the heading, as seed 003 shows them, in the words of
// issue 27 ("같은 원인 · 둘 다 인메모리 캐시, 애플리케이션 데이터베이스 관련";
// the seed's "공통 인메모리 캐시" read as one cache both share). Each link keeps its own
// reason for the line under it.
type RelGroup struct {
	related.Kind
	related.Reason
	Links []related.Link
}

// deriveRelated computes every case's related cases once; both languages
// and the API use the result. The second result is the words to show for
// the narrative keys that reasons name (narrative.go).
func deriveRelated(lib *cases.Library, words EachWordFunc) (map[string][]RelGroup, map[string]string) {
	nar := deriveNarrative(lib, words)
	items := make([]related.Item, len(lib.Cases))
	for i, c := range lib.Cases {
		items[i] = related.Item{
			ID: c.ID, Date: c.Date.String(), RootCause: c.RootCause,
			Components: c.Components, Contributing: c.Contributing, Symptoms: c.Symptoms,
			Words: nar.words[i], Related: c.Related, RecurrenceOf: c.RecurrenceOf,
		}
	}
	links := related.Compute(items, related.Options{})
	out := make(map[string][]RelGroup, len(lib.Cases))
	for i, c := range lib.Cases {
		var groups []RelGroup
		for _, l := range links[i] {
			gi := -1
			for k := range groups {
				if groups[k].Kind == l.Kind && groups[k].SameRootCause == l.SameRootCause {
					gi = k
				}
			}
			if gi < 0 {
				groups = append(groups, RelGroup{Kind: l.Kind, Reason: related.Reason{SameRootCause: l.SameRootCause}})
				gi = len(groups) - 1
			}
			g := &groups[gi]
			g.Components = union(g.Components, l.Components)
			g.Contributing = union(g.Contributing, l.Contributing)
			g.Symptoms = union(g.Symptoms, l.Symptoms)
			g.Words = union(g.Words, l.Words)
			g.Links = append(g.Links, l)
		}
		// A heading names the strongest shared terms only; each line under
		// it still says everything its case shares. Shared words head a
		// group only when its cases share no term at all.
		for k := range groups {
			g := &groups[k]
			switch {
			case g.SameRootCause || len(g.Components) > 0:
				g.Contributing, g.Symptoms, g.Words = nil, nil, nil
			case len(g.Contributing) > 0:
				g.Symptoms, g.Words = nil, nil
			case len(g.Symptoms) > 0:
				g.Words = nil
			}
		}
		out[c.ID] = groups
	}
	return out, nar.forms
}

// sameRelations reports whether a and b have the same cases in the same
// order with the same inputs to related cases (dates, terms, links and the
// narrative texts whose words are weighed), so that related cases computed
// for one hold for the other.
func sameRelations(a, b *cases.Library) bool {
	if len(a.Cases) != len(b.Cases) {
		return false
	}
	for i, x := range a.Cases {
		y := b.Cases[i]
		if x == y {
			continue
		}
		if x.ID != y.ID || x.Date != y.Date || x.RootCause != y.RootCause || x.RecurrenceOf != y.RecurrenceOf ||
			!slices.Equal(x.Components, y.Components) || !slices.Equal(x.Contributing, y.Contributing) ||
			!slices.Equal(x.Symptoms, y.Symptoms) || !slices.Equal(x.Related, y.Related) ||
			x.Org != y.Org || x.OrgSlug != y.OrgSlug || x.OrgKo != y.OrgKo ||
			x.Title != y.Title || x.Summary != y.Summary || x.Trigger != y.Trigger || !slices.Equal(x.Remediation, y.Remediation) {
			return false
		}
	}
	return true
}

func union(a, b []string) []string {
	for _, x := range b {
		found := false
		for _, y := range a {
			if x == y {
				found = true
				break
			}
		}
		if !found {
			a = append(a, x)
		}
	}
	return a
}

// Related returns a case's related cases, grouped for display.
func (s *Site) Related(id string) []RelGroup { return s.related[id] }

// Reason writes why a case is related, in lang, for the API.
func (s *Site) Reason(lang string, kind related.Kind, r related.Reason) string {
	return s.reason(&pageView{Lang: lang, s: s}, kind, r)
}
