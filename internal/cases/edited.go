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
// existing cases edited, in a library without errors or drafts. It reads
// only the files in changed, and neither lists the cases folder nor checks
// the other files again, so that at 10,000 cases a save costs what one
// file costs. ok is false, and nothing is returned, when the save is not
// such an edit: a path that is no case file of lib, a file that now has an
// error, is a draft or is withdrawn, or an edit to what the checks between
// files read (the id, date, organisation, related cases and recurrence);
// the caller then calls Reload, which returns the same library and
// problems when ok is true (TestReloadEditedIsReload).
func ReloadEdited(lib *Library, prev diag.List, fsys fs.FS, changed []string) (_ *Library, _ diag.List, ok bool) {
	if lib == nil || lib.text != nil || len(lib.Drafts) > 0 || prev.Errors() > 0 || prev.Dropped() > 0 || len(changed) == 0 {
		return nil, diag.List{}, false
	}
	names := make([]string, 0, len(changed))
	olds := make([]*Case, 0, len(changed))
	for _, p := range changed {
		p = path.Clean(strings.TrimPrefix(p, "/"))
		id, isCase := strings.CutSuffix(path.Base(p), ".json")
		old := lib.ByID[id]
		if !InCases(p) || !isCase || old == nil || old.File != p || old.Draft || old.Withdrawn != nil || slices.Contains(names, p) {
			return nil, diag.List{}, false
		}
		names, olds = append(names, p), append(olds, old)
	}
	nl := *lib
	fresh := loadCaseFiles(fsys, names, &nl.Vocab, nil)
	swap := make(map[*Case]*Case, len(names))
	for i, name := range names {
		r := fresh[name]
		if r.c == nil || r.draft || r.list.Errors() > 0 || r.list.Dropped() > 0 || !sameLinks(olds[i], r.c) {
			return nil, diag.List{}, false
		}
		swap[olds[i]] = r.c
	}
	nl.Cases = slices.Clone(lib.Cases)
	nl.ByID = maps.Clone(lib.ByID)
	for i, c := range nl.Cases {
		if n := swap[c]; n != nil {
			nl.Cases[i] = n
			nl.ByID[n.ID] = n
		}
	}
	var list diag.List
	for _, d := range prev.Items {
		if !slices.Contains(names, d.File) {
			list.Add(d)
		}
	}
	for _, name := range names {
		list.Merge(fresh[name].list)
	}
	// The one check between files that warns: an organisation missing from
	// vocab.json, on its first case, which may be an edited one.
	for i, c := range nl.Cases {
		if swap[lib.Cases[i]] == c && !slices.ContainsFunc(nl.Cases[:i], func(e *Case) bool { return e.OrgSlug == c.OrgSlug }) {
			orgWarning(&nl, c, map[string]bool{}, &list)
		}
	}
	list.Sort()
	return &nl, list, true
}

// sameLinks reports whether a and b, two versions of a case, agree in all
// that the checks between files and the order of the cases read.
func sameLinks(a, b *Case) bool {
	return a.ID == b.ID && a.File == b.File && a.Date == b.Date && b.Withdrawn == nil && !b.Draft &&
		a.Org == b.Org && a.OrgSlug == b.OrgSlug && a.RecurrenceOf == b.RecurrenceOf && slices.Equal(a.Related, b.Related)
}
