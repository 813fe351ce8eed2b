package cases

import (
	"fmt"

	"incidentlib/internal/diag"
	"incidentlib/internal/jsonpos"
)

// Withdrawal is why and when a case was taken back, as OSV withdraws a
// record: the case keeps its address and its API record, which say so,
// and leaves every list, topic, search index and related case.
type Withdrawal struct {
	Date       Date
	Reason     Bilingual
	ReplacedBy []string // ids of the cases that replace it, in the file's order
}

// readWithdrawal reads a case's withdrawn, which the schema check has
// judged; a day that is not a real one is an error.
func readWithdrawal(v *jsonpos.Value, c *Case, errorAt errorAtFunc) {
	w := v.Get("withdrawn")
	if w == nil || w.Kind != jsonpos.Object {
		return
	}
	c.Withdrawn = &Withdrawal{Reason: getText(w, "reason"), ReplacedBy: getStrings(w, "replaced_by")}
	if d := w.Get("date"); d != nil && d.Kind == jsonpos.String {
		if date, ok := parseDate(d.Str); ok {
			c.Withdrawn.Date = date
		} else if isDate(d.Str) {
			errorAt(d, "withdrawn.date", "%q is not a real date", d.Str)
		}
	}
}

// checkWithdrawals reports a replacement that is no listed case, and a
// listed case that links a withdrawn one (related, recurrence_of): a
// withdrawn case is in no list, so such a link would lead nowhere a
// reader can follow. Only the files with a problem are parsed again, for
// positions.
func checkWithdrawals(lib *Library, list *diag.List) {
	withdrawn := func(id string) bool { c := lib.ByID[id]; return c != nil && c.Withdrawn != nil }
	for _, c := range lib.Cases {
		bad := withdrawn(c.RecurrenceOf)
		for _, id := range c.Related {
			bad = bad || withdrawn(id)
		}
		if w := c.Withdrawn; w != nil {
			for _, id := range w.ReplacedBy {
				bad = bad || id == c.ID || withdrawn(id) || lib.ByID[id] == nil
			}
		}
		if !bad {
			continue
		}
		raw, err := c.readRaw()
		if err != nil {
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
			if withdrawn(it.Str) {
				at(it, fmt.Sprintf("related[%d]", i), "case %s is withdrawn: link the cases that replace it (its withdrawn.replaced_by)", it.Str)
			}
		}
		if r := doc.Root.Get("recurrence_of"); r != nil && withdrawn(r.Str) {
			at(r, "recurrence_of", "case %s is withdrawn: name the case that replaces it", r.Str)
		}
		if c.Withdrawn == nil {
			continue
		}
		for i, it := range getList(doc.Root.Get("withdrawn"), "replaced_by") {
			field := fmt.Sprintf("withdrawn.replaced_by[%d]", i)
			switch {
			case !isID(it.Str):
			case it.Str == c.ID:
				at(it, field, "a case cannot replace itself")
			case lib.ByID[it.Str] == nil:
				at(it, field, "no case with id %q", it.Str)
			case withdrawn(it.Str):
				at(it, field, "case %s is withdrawn too: name a case that is not", it.Str)
			}
		}
	}
}

// splitWithdrawn parts the cases, newest first, into those listed and
// those withdrawn, keeping the order of each.
func splitWithdrawn(all []*Case) (listed, withdrawn []*Case) {
	n := 0
	for _, c := range all {
		if c.Withdrawn != nil {
			n++
		}
	}
	if n == 0 {
		return all, nil
	}
	listed = make([]*Case, 0, len(all)-n)
	for _, c := range all {
		if c.Withdrawn != nil {
			withdrawn = append(withdrawn, c)
		} else {
			listed = append(listed, c)
		}
	}
	return listed, withdrawn
}
