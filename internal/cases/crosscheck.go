package cases

import (
	"fmt"
	"slices"
	"strings"

	"incidentlib/internal/diag"
	"incidentlib/internal/jsonpos"
)

// fieldPos returns the position of a top-level field of a case, such as
// its id or org_slug. Cases keep no parse tree, so the file is parsed
// again; that happens only for a problem found after loading (a duplicate
// id, an organisation missing from vocab.json).
func fieldPos(c *Case, key string) (int, int) {
	raw, err := c.readRaw()
	if err != nil {
		return 0, 0
	}
	doc := jsonpos.Parse(string(raw))
	if doc.Root == nil {
		return 0, 0
	}
	if v := doc.Root.Get(key); v != nil {
		return doc.Pos(v.Off)
	}
	return 0, 0
}

// crossCheck reports exactly what checkLinks reports, without parsing every
// case file again: checkLinks needs positions, so it re-parses each file it
// looks at, which at 10,000 cases costs most of a second. The model says
// which cases have a problem; checkLinks then runs on those alone, plus the
// first case of each organisation slug in conflict, which checkLinks
// compares the others with. Cases keep their order, so every message is the
// one a full check gives.
func crossCheck(lib *Library, list *diag.List) {
	rings := recurrenceRings(lib)
	first := map[string]*Case{}
	conflict := map[string]bool{}
	bad := map[*Case]bool{}
	broken := func(c *Case, id string) bool {
		return isID(id) && (id == c.ID || lib.ByID[id] == nil)
	}
	for _, c := range lib.Cases {
		for _, id := range c.Related {
			if broken(c, id) {
				bad[c] = true
			}
		}
		if broken(c, c.RecurrenceOf) || rings[c] != "" {
			bad[c] = true
		}
		if f, ok := first[c.OrgSlug]; !ok {
			first[c.OrgSlug] = c
		} else if c.OrgSlug != "" && f.Org != c.Org {
			bad[c] = true
			conflict[c.OrgSlug] = true
		}
	}
	if len(bad) == 0 {
		return
	}
	var subset []*Case
	for _, c := range lib.Cases {
		if bad[c] || (conflict[c.OrgSlug] && first[c.OrgSlug] == c) {
			subset = append(subset, c)
		}
	}
	checkLinks(&Library{Cases: subset, ByID: lib.ByID}, list, rings)
}

// recurrenceRings finds the cases whose recurrence_of leads back to them
// (A is a recurrence of B, which is a recurrence of A): each case on a
// ring maps to the ring, written from its smallest id ("IL-0011 → IL-0053
// → IL-0011"). A case has one recurrence_of, so following them from every
// case once, and never twice through the same case, is linear.
func recurrenceRings(lib *Library) map[*Case]string {
	const (
		unseen = iota
		onPath
		done
	)
	state := map[*Case]int{}
	rings := map[*Case]string{}
	for _, start := range lib.Cases {
		var path []*Case
		c := start
		for c != nil && state[c] == unseen {
			state[c] = onPath
			path = append(path, c)
			next := lib.ByID[c.RecurrenceOf]
			if next == c {
				next = nil // reported as a recurrence of itself
			}
			c = next
		}
		if c != nil && state[c] == onPath {
			i := slices.Index(path, c)
			ring := path[i:]
			low := 0
			for j, r := range ring {
				if r.ID < ring[low].ID {
					low = j
				}
			}
			var ids []string
			for j := range ring {
				ids = append(ids, ring[(low+j)%len(ring)].ID)
			}
			text := strings.Join(append(ids, ids[0]), " → ")
			for _, r := range ring {
				rings[r] = text
			}
		}
		for _, p := range path {
			state[p] = done
		}
	}
	return rings
}

// checkLinks checks references between cases and organisation names;
// rings are the cases on a ring of recurrences (recurrenceRings).
func checkLinks(lib *Library, list *diag.List, rings map[*Case]string) {
	orgName := map[string]*Case{}
	ids := newSuggester(caseIDs(lib)) // once: a check with many unknown ids stays linear
	for _, c := range lib.Cases {
		raw, err := c.readRaw() // cheap next to rendering; keeps positions out of the model
		if err != nil {
			list.Errorf(c.File, 0, 0, "", "%v", err)
			continue
		}
		doc := jsonpos.Parse(string(raw))
		if doc.Root == nil {
			continue
		}
		at := func(v *jsonpos.Value, field, format string, args ...any) {
			line, col := doc.Pos(v.Off)
			list.Errorf(c.File, line, col, field, format, args...)
		}
		for i, it := range getList(doc.Root, "related") {
			field := fmt.Sprintf("related[%d]", i)
			switch {
			case !isID(it.Str):
				// The schema check reported it.
			case it.Str == c.ID:
				at(it, field, "a case cannot be related to itself")
			case lib.ByID[it.Str] == nil:
				at(it, field, "no case with id %q%s", it.Str, ids.closeID(it.Str, c.ID))
			}
		}
		if r := doc.Root.Get("recurrence_of"); r != nil && r.Kind == jsonpos.String {
			switch {
			case !isID(r.Str):
			case r.Str == c.ID:
				at(r, "recurrence_of", "a case cannot be a recurrence of itself")
			case lib.ByID[r.Str] == nil:
				at(r, "recurrence_of", "no case with id %q%s", r.Str, ids.closeID(r.Str, c.ID))
			case rings[c] != "":
				at(r, "recurrence_of", "the recurrences form a ring, %s: the earliest case of the ring is a recurrence of none of them", rings[c])
			}
		}
		if prev, ok := orgName[c.OrgSlug]; ok && prev.Org != c.Org && c.OrgSlug != "" {
			at(doc.Root.Get("org"), "org", "org_slug %q is %q in %s but %q here", c.OrgSlug, prev.Org, prev.File, c.Org)
		} else if !ok {
			orgName[c.OrgSlug] = c
		}
	}
}

func caseIDs(lib *Library) []string {
	ids := make([]string, 0, len(lib.ByID))
	for id := range lib.ByID {
		ids = append(ids, id)
	}
	return ids
}
