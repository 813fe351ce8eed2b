package library

import (
	"context"
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
// and the API use the result. A reason's Words are the phrases to show,
// "lang:phrase" (phrases.go), not the narrative keys they were computed
// from.
func deriveRelated(lib *cases.Library, words EachWordFunc) map[string][]RelGroup {
	out, _ := deriveRelatedUnless(context.Background(), lib, words)
	return out
}

// deriveRelatedUnless is deriveRelated, given up between its steps when
// ctx ends (the preview's late related cases, late.go, when a newer save
// made them moot); the error is then ctx's cause.
func deriveRelatedUnless(ctx context.Context, lib *cases.Library, words EachWordFunc) (map[string][]RelGroup, error) {
	nar := deriveNarrative(lib, words)
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	items := make([]related.Item, len(lib.Cases))
	for i, c := range lib.Cases {
		items[i] = related.Item{
			ID: c.ID, Date: c.Date.String(), RootCause: c.RootCause,
			Components: c.Components, Contributing: c.Contributing, Symptoms: c.Symptoms, Domains: c.Domain,
			Words: nar.words[i], Related: c.Related, RecurrenceOf: c.RecurrenceOf,
		}
	}
	links := related.Compute(items, related.Options{})
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	showPhrases(lib, links, words)
	out := make(map[string][]RelGroup, len(lib.Cases))
	for i, c := range lib.Cases {
		out[c.ID] = groupLinks(links[i])
	}
	return out, nil
}

// groupLinks groups a case's links under one heading per kind of link and
// answer to "same root cause?".
func groupLinks(links []related.Link) []RelGroup {
	if len(links) == 0 {
		return nil
	}
	// The groups are counted first, so that they and their links take
	// one block each: growing them link by link was most of the grouping.
	type heading struct {
		kind related.Kind
		same bool
	}
	var headings []heading
	var sizes []int
	at := make([]int, len(links)) // each link's group
	for i, l := range links {
		h := heading{l.Kind, l.SameRootCause}
		gi := slices.Index(headings, h)
		if gi < 0 {
			gi = len(headings)
			headings, sizes = append(headings, h), append(sizes, 0)
		}
		at[i] = gi
		sizes[gi]++
	}
	groups := make([]RelGroup, len(headings))
	block := make([]related.Link, len(links))
	for gi, h := range headings {
		groups[gi] = RelGroup{Kind: h.kind, Reason: related.Reason{SameRootCause: h.same}, Links: block[:0:sizes[gi]]}
		block = block[sizes[gi]:]
	}
	for i, l := range links {
		g := &groups[at[i]]
		g.Components = union(g.Components, l.Components)
		g.Links = append(g.Links, l)
	}
	// A heading names the strongest shared terms only; each line under it
	// still says everything its case shares. Shared words head a group
	// only when its cases share no term at all. A weaker list is joined
	// only when the stronger ones are empty: joining the words of every
	// group was a tenth of the deriving at 10,000 cases.
	for k := range groups {
		g := &groups[k]
		if g.SameRootCause || len(g.Components) > 0 {
			continue
		}
		if g.Contributing = joinLinks(g.Links, func(l *related.Link) []string { return l.Contributing }); len(g.Contributing) > 0 {
			continue
		}
		if g.Symptoms = joinLinks(g.Links, func(l *related.Link) []string { return l.Symptoms }); len(g.Symptoms) > 0 {
			continue
		}
		g.Words = joinLinks(g.Links, func(l *related.Link) []string { return l.Words })
	}
	return groups
}

// joinLinks joins one list of every link, each item once, in order.
func joinLinks(links []related.Link, list func(*related.Link) []string) []string {
	var out []string
	for i := range links {
		out = union(out, list(&links[i]))
	}
	return out
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
