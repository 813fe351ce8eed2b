package library

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"incidentlib/internal/cases"
)

// After a save that edited the text of cases and nothing else the other
// files read (cases.ReloadEdited), the preview's next library is made from
// the one before it in the time the edited cases take, not the library:
// the topics the edited cases are in (before or after) are made again and
// every other topic is shared, and the version moves by the edited cases'
// dates. TestEditedIsDerived holds the result equal to a full derive.

// edit is one case read again: its version before and after.
type edit struct{ old, new *cases.Case }

// editsOf returns the cases of lib that replace a case of prev at the same
// place, or false when lib is not prev with cases replaced in place.
func editsOf(prev, lib *cases.Library) ([]edit, bool) {
	if len(prev.Cases) != len(lib.Cases) || len(prev.Withdrawn) != len(lib.Withdrawn) {
		return nil, false
	}
	var out []edit
	for i, c := range lib.Cases {
		if o := prev.Cases[i]; o != c {
			if o.ID != c.ID || o.Date != c.Date || o.Draft != c.Draft {
				return nil, false
			}
			out = append(out, edit{o, c})
		}
	}
	for i, c := range lib.Withdrawn {
		if prev.Withdrawn[i] != c {
			return nil, false
		}
	}
	return out, true
}

// editTopics returns prev's topics with the edits made, as deriveTopics
// would make them for lib.
func editTopics(prev Topics, lib *cases.Library, edits []edit) Topics {
	out := make(Topics, len(prev))
	for _, cf := range cases.Facets {
		f := prev[cf.Name]
		touched := map[string]bool{}
		for _, e := range edits {
			cf.Each(e.old, func(id string) { touched[id] = true })
			cf.Each(e.new, func(id string) { touched[id] = true })
		}
		if len(touched) == 0 {
			out[cf.Name] = f
			continue
		}
		out[cf.Name] = editFacet(cf, f, lib, edits, touched)
	}
	return out
}

// editFacet makes the touched topics of f again.
func editFacet(cf *cases.Facet, f *FacetTopics, lib *cases.Library, edits []edit, touched map[string]bool) *FacetTopics {
	nf := &FacetTopics{Name: f.Name, byID: maps.Clone(f.byID)}
	reorder := false
	made := map[*Topic]*Topic{}
	for id := range touched {
		t := f.byID[id]
		var list []*cases.Case
		if t != nil {
			list = slices.Clone(t.Cases)
		} else if cf.Controlled || !cf.HasTopic(id) {
			continue // as deriveTopics: a term without a topic page
		}
		for _, e := range edits {
			list = slices.DeleteFunc(list, func(c *cases.Case) bool { return c == e.old })
			cf.Each(e.new, func(term string) {
				if term == id {
					i := sort.Search(len(list), func(i int) bool { return newerFirst(e.new, list[i]) })
					list = slices.Insert(list, i, e.new)
				}
			})
		}
		var nt *Topic
		switch {
		case t != nil:
			nt = &Topic{Facet: t.Facet, ID: t.ID, Label: t.Label, Description: t.Description, Cases: list, voc: t.voc}
		case len(list) > 0:
			nt = &Topic{Facet: cf.Name, ID: id, voc: &lib.Vocab, Cases: list}
		default:
			continue
		}
		if !cf.Controlled && len(list) > 0 {
			nt.Label = ownLabel(cf, id, list[0], &lib.Vocab) // from the topic's newest case, as deriveTopics
		}
		if (t == nil || len(t.Cases) == 0) != (len(list) == 0) || (t != nil && t.Label != nt.Label) {
			reorder = true
		}
		if !cf.Controlled && len(list) == 0 {
			delete(nf.byID, id)
		} else {
			nf.byID[id] = nt
		}
		if t != nil {
			made[t] = nt
		}
	}
	if !reorder {
		nf.Topics = make([]*Topic, len(f.Topics))
		for i, t := range f.Topics {
			if n := made[t]; n != nil {
				t = n
			}
			nf.Topics[i] = t
		}
		return nf
	}
	for _, t := range nf.byID {
		if len(t.Cases) > 0 {
			nf.Topics = append(nf.Topics, t)
		}
	}
	sortTopics(cf, nf, lib)
	return nf
}

// newerFirst reports whether a comes before b in the cases' order
// (cases.SortNewestFirst).
func newerFirst(a, b *cases.Case) bool {
	if a.Date != b.Date {
		return b.Date.Before(a.Date)
	}
	return a.ID < b.ID
}

// sortTopics puts a facet's topics in display order.
func sortTopics(cf *cases.Facet, f *FacetTopics, lib *cases.Library) {
	switch cf.Order {
	case cases.NewestFirst:
		sort.Slice(f.Topics, func(i, j int) bool { return f.Topics[i].ID > f.Topics[j].ID })
	case cases.ByName:
		// As a reader looks a name up: by the Unicode collation, so
		// that case and accents come after the letters ("Datadog"
		// before "DFDS"); the bytes and then the slug break ties, so
		// that the order is the same on every machine.
		coll := collate.New(language.Und)
		sort.Slice(f.Topics, func(i, j int) bool {
			a, b := f.Topics[i], f.Topics[j]
			if c := coll.CompareString(a.Label.En, b.Label.En); c != 0 {
				return c < 0
			}
			if a.Label.En != b.Label.En {
				return a.Label.En < b.Label.En
			}
			return a.ID < b.ID
		})
	default:
		field := cf.Field
		sort.Slice(f.Topics, func(i, j int) bool {
			a, b := lib.Vocab.Rank(field, f.Topics[i].ID), lib.Vocab.Rank(field, f.Topics[j].ID)
			if a != b {
				return a < b
			}
			return f.Topics[i].ID < f.Topics[j].ID // terms outside a vocabulary
		})
	}
}

// editVersion returns the version of the content after the edits, from
// the version before them (versionOf), or "" when it must be counted
// again: when an edit moved a case off the day of the latest changes.
func editVersion(prev string, edits []edit) string {
	day, n, ok := strings.Cut(prev, ".")
	count, err := strconv.Atoi(n)
	if !ok || err != nil {
		return ""
	}
	for _, e := range edits {
		if e.new.Draft {
			continue // a draft is no change of the library yet (versionOf)
		}
		a, b := e.old.UpdatedAt.UTC().Format("2006-01-02"), e.new.UpdatedAt.UTC().Format("2006-01-02")
		switch {
		case a == b:
		case b > day:
			day, count = b, 1
		case a == day:
			return "" // the day may now be an earlier one
		case b == day:
			count++
		}
	}
	return day + "." + strconv.Itoa(count)
}
