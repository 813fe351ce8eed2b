package library

import (
	"context"
	"reflect"

	"incidentlib/internal/cases"
	"incidentlib/internal/tokenize"
)

// Related cases late: at 10,000 cases computing them takes seconds, and an
// edit to a case's story changes what they are computed from. The preview
// (Options.LateRelated) makes the library of the edit with the related
// cases of the library before it, which name the same cases, shows it, and
// then computes them with Relate and shows the exact library too when
// they changed. A build never sets LateRelated: its libraries are exact.

// Stale reports whether l's related cases were kept from before an edit
// that may have changed them (Options.LateRelated): Relate makes them
// exact.
func (l *Library) Stale() bool { return l.stale }

// Relate returns l with its related cases computed for its own content,
// and whether they differ from those l had; a library that is not stale is
// returned as it is. The error is ctx's cause when it ended first (a newer
// edit made l old).
func (l *Library) Relate(ctx context.Context) (*Library, bool, error) {
	if !l.stale || !l.Ready() {
		return l, false, nil
	}
	related, err := deriveRelatedUnless(ctx, l.Lib, tokenize.EachWord)
	if err != nil {
		return nil, false, err
	}
	exact := *l
	exact.related, exact.stale = related, false
	return &exact, !reflect.DeepEqual(related, l.related), nil
}

// sameCases reports whether a and b hold the same cases by ID, in the same
// order: related cases of one then name only cases of the other.
func sameCases(a, b *cases.Library) bool {
	if len(a.Cases) != len(b.Cases) {
		return false
	}
	for i := range a.Cases {
		if a.Cases[i].ID != b.Cases[i].ID {
			return false
		}
	}
	return true
}
