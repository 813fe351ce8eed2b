package site

import "incidentlib/internal/cases"

// RelKind says why a related case is listed.
type RelKind uint8

// The reasons a case can be related.
const (
	RelComputed RelKind = iota
	RelExplicit
	RelRecurrenceOf
	RelRecurred
)

// RelGroup is related cases that share one reason, in display order.
type RelGroup struct {
	Kind          RelKind
	SameRootCause bool
	Components    []string
	Contributing  []string
	Symptoms      []string
	IDs           []string
}

// deriveRelated lists each case's related cases, grouped by reason.
func deriveRelated(lib *cases.Library) map[string][]RelGroup {
	out := map[string][]RelGroup{}
	for _, c := range lib.Cases {
		for _, id := range c.Related {
			out[c.ID] = append(out[c.ID], RelGroup{Kind: RelExplicit, IDs: []string{id}})
		}
	}
	return out
}
