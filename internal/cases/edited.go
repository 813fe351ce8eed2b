package cases

import (
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"incidentlib/internal/diag"
)

// ReloadEdited is Reload for the usual save of the preview: the text of
// existing cases or drafts edited, in a library without errors. It reads
// only the files in changed, and neither lists the cases folder nor checks
// the other files again, so that at 10,000 cases a save costs what one
// file costs. ok is false, and nothing is returned, when the save is not
// such an edit: a path that is no case file or draft of lib, a case that
// now has an error, became a draft or is withdrawn, a draft that was
// published, or an edit to what the checks between files read (the id,
// date, organisation, related cases and recurrence); the caller then calls
// Reload, which returns the same library and problems when ok is true
// (TestReloadEditedIsReload). lib may have its drafts among its cases
// (WithDrafts); the library returned has not, as Reload's.
func ReloadEdited(lib *Library, prev diag.List, fsys fs.FS, changed []string) (_ *Library, _ diag.List, ok bool) {
	if lib == nil || lib.text != nil || prev.Errors() > 0 || prev.Dropped() > 0 || len(changed) == 0 {
		return nil, diag.List{}, false
	}
	base := withoutDrafts(lib)
	names := make([]string, 0, len(changed))
	olds := make([]*Case, 0, len(changed)) // nil for a draft
	for _, p := range changed {
		p = path.Clean(strings.TrimPrefix(p, "/"))
		id, isCase := strings.CutSuffix(path.Base(p), ".json")
		if !InCases(p) || !isCase || slices.Contains(names, p) {
			return nil, diag.List{}, false
		}
		old := base.ByID[id]
		draft := slices.ContainsFunc(base.Drafts, func(d Draft) bool { return d.File == p })
		if !draft && (old == nil || old.File != p || old.Withdrawn != nil) {
			return nil, diag.List{}, false
		}
		if draft {
			old = nil
		}
		names, olds = append(names, p), append(olds, old)
	}
	nl := *base
	fresh := loadCaseFiles(fsys, names, &nl.Vocab, nil)
	swap := make(map[*Case]*Case, len(names))
	nl.Drafts = slices.Clone(base.Drafts)
	for i, name := range names {
		r := fresh[name]
		if olds[i] == nil { // a draft: its problems are its own (gatherCases)
			if !r.draft {
				return nil, diag.List{}, false
			}
			d := Draft{ID: strings.TrimSuffix(path.Base(name), ".json"), File: name, Problems: r.list}
			if r.list.Errors() == 0 {
				d.Case = r.c
			}
			nl.Drafts[slices.IndexFunc(nl.Drafts, func(d Draft) bool { return d.File == name })] = d
			continue
		}
		if r.c == nil || r.draft || r.list.Errors() > 0 || r.list.Dropped() > 0 || !sameLinks(olds[i], r.c) {
			return nil, diag.List{}, false
		}
		swap[olds[i]] = r.c
	}
	if len(swap) > 0 {
		nl.Cases = slices.Clone(base.Cases)
		nl.ByID = maps.Clone(base.ByID)
		for i, c := range nl.Cases {
			if n := swap[c]; n != nil {
				nl.Cases[i] = n
				nl.ByID[n.ID] = n
			}
		}
	}
	var list diag.List
	for _, d := range prev.Items {
		if !slices.Contains(names, d.File) {
			list.Add(d)
		}
	}
	for i, name := range names {
		if olds[i] != nil {
			list.Merge(fresh[name].list)
		}
	}
	// The one check between files that warns: an organisation missing from
	// vocab.json, on its first case, which may be an edited one.
	for i, c := range nl.Cases {
		if swap[base.Cases[i]] == c && !slices.ContainsFunc(nl.Cases[:i], func(e *Case) bool { return e.OrgSlug == c.OrgSlug }) {
			orgWarning(&nl, c, map[string]bool{}, &list)
		}
	}
	list.Sort()
	return &nl, list, true
}

// withoutDrafts undoes WithDrafts: lib with only its published cases.
func withoutDrafts(lib *Library) *Library {
	if !slices.ContainsFunc(lib.Cases, func(c *Case) bool { return c.Draft }) {
		return lib
	}
	l := *lib
	l.Cases = slices.DeleteFunc(slices.Clone(lib.Cases), func(c *Case) bool { return c.Draft })
	l.ByID = maps.Clone(lib.ByID)
	for _, d := range lib.Drafts {
		if d.Case != nil && l.ByID[d.Case.ID] == d.Case {
			delete(l.ByID, d.Case.ID)
		}
	}
	return &l
}

// sameLinks reports whether a and b, two versions of a case, agree in all
// that the checks between files and the order of the cases read.
func sameLinks(a, b *Case) bool {
	return a.ID == b.ID && a.File == b.File && a.Date == b.Date && b.Withdrawn == nil &&
		a.Org == b.Org && a.OrgSlug == b.OrgSlug && a.RecurrenceOf == b.RecurrenceOf && slices.Equal(a.Related, b.Related)
}
