package library

import (
	"slices"
	"strings"
	"time"

	"incidentlib/internal/cases"
)

// CaseChange is one line of the library's log of changes: a case updated
// or withdrawn, and when.
type CaseChange struct {
	Case *cases.Case
	Kind string    // ChangeUpdated or ChangeWithdrawn
	At   time.Time // the case's updated_at, or the day it was withdrawn
}

// The kinds of change.
const (
	ChangeUpdated   = "updated"
	ChangeWithdrawn = "withdrawn"
)

// Changes lists what changed in the library, newest first (ties by id):
// every listed case at its updated_at (a case written for the first time
// has it too), every withdrawn case on the day it was withdrawn. It is
// made from the content alone, as every output of a build is, so that
// two builds of one content are the same: the content holds no earlier
// version of a case, so a change names no fields, and "added" cannot be
// told from "updated".
func (l *Library) Changes() []CaseChange {
	out := make([]CaseChange, 0, len(l.Lib.Cases)+len(l.Lib.Withdrawn))
	for _, c := range l.Lib.Cases {
		out = append(out, CaseChange{Case: c, Kind: ChangeUpdated, At: c.UpdatedAt})
	}
	for _, c := range l.Lib.Withdrawn {
		w := c.Withdrawn.Date
		out = append(out, CaseChange{Case: c, Kind: ChangeWithdrawn, At: time.Date(w.Year, max(w.Month, 1), max(w.Day, 1), 0, 0, 0, 0, time.UTC)})
	}
	slices.SortStableFunc(out, func(a, b CaseChange) int {
		if c := b.At.Compare(a.At); c != 0 {
			return c
		}
		return strings.Compare(a.Case.ID, b.Case.ID)
	})
	return out
}
