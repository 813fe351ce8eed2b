package library

import (
	"slices"
	"strings"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/history"
)

// CaseChange is one line of the library's log of changes: a case added,
// updated or withdrawn, and when.
type CaseChange struct {
	Case *cases.Case
	Kind string    // ChangeAdded, ChangeUpdated or ChangeWithdrawn
	At   time.Time // the commit's date; without git, the case's updated_at or the day it was withdrawn
	// Fields are the top-level fields the change changed, and Commit the
	// commit that made it, when the changes come from git
	// (ChangesSource); none otherwise.
	Fields []string
	Commit string
}

// The kinds of change.
const (
	ChangeAdded     = history.Added
	ChangeUpdated   = history.Updated
	ChangeWithdrawn = history.Withdrawn
)

// Where the log of changes comes from (ChangesSource).
const (
	FromGit       = "git"
	FromUpdatedAt = "updated_at"
)

// ChangesSource says where Changes comes from: FromGit with the commit the
// history was read at, when the build read the content's git history
// (Options.History), or FromUpdatedAt.
func (l *Library) ChangesSource() (source, commit string) {
	if l.history != nil {
		return FromGit, l.history.Head
	}
	return FromUpdatedAt, ""
}

// Changes lists what changed in the library, newest first (ties by id):
// every listed case at its updated_at (a case written for the first time
// has it too), every withdrawn case on the day it was withdrawn. It is
// made from the content alone, as every output of a build is, so that
// two builds of one content are the same: the content holds no earlier
// version of a case, so a change names no fields, and "added" cannot be
// told from "updated".
//
// When the build read the content's git history (Options.History), the
// log is the history's instead: each case added, each change with the
// fields it changed, each withdrawal, at its commit's date, for the cases
// the library holds (listed or withdrawn), at most history.DefaultLimit.
func (l *Library) Changes() []CaseChange {
	if l.history != nil {
		return l.gitChanges()
	}
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

// gitChanges is Changes from the content's git history: a change of a case
// the library no longer holds (its file removed, or a draft now) is left
// out.
func (l *Library) gitChanges() []CaseChange {
	byID := make(map[string]*cases.Case, len(l.Lib.Cases)+len(l.Lib.Withdrawn))
	for _, list := range [][]*cases.Case{l.Lib.Cases, l.Lib.Withdrawn} {
		for _, c := range list {
			byID[c.ID] = c
		}
	}
	out := make([]CaseChange, 0, len(l.history.Changes))
	for _, h := range l.history.Changes {
		if c := byID[h.ID]; c != nil {
			out = append(out, CaseChange{Case: c, Kind: h.Kind, At: h.At, Fields: h.Fields, Commit: h.Commit})
		}
	}
	return out
}
