package api

import (
	"incidentlib/internal/cases"
	"incidentlib/internal/library"
	"incidentlib/internal/urls"
)

// appendAffected appends ,"affected":[…] when the case names products and
// versions, as its file writes them; nothing when it names none.
func appendAffected(b []byte, c *cases.Case) []byte {
	if len(c.Affected) == 0 {
		return b
	}
	b = append(appendKey(b, "affected"), '[')
	for i, a := range c.Affected {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(append(b, `{"product":`...), a.Product)
		for _, kv := range [][2]string{{"introduced", a.Introduced}, {"fixed", a.Fixed}, {"last_affected", a.LastAffected}} {
			if kv[1] != "" {
				b = appendString(appendKey(b, kv[0]), kv[1])
			}
		}
		if len(a.Versions) > 0 {
			b = appendStrings(appendKey(b, "versions"), a.Versions)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendChecklist appends ,"checklist":[…], a topic's checklist (see
// library.Checklist): by group, each item's text and the cases it came
// from with their status, the item most cases share first.
// Nothing is appended for a topic whose cases have none.
// A large list goes to out as it is made (spill.flush).
func (w *writer) appendChecklist(b []byte, t *library.Topic, out *spill) []byte {
	groups := w.l.Checklist().For(t.Cases)
	if len(groups) == 0 {
		return b
	}
	if w.checkTexts == nil {
		w.checkTexts = make([][]byte, len(w.l.Checklist().Items))
	}
	b = append(appendKey(b, "checklist"), '[')
	for i, g := range groups {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(append(b, `{"group":`...), g.Name)
		b = append(b, `,"items":[`...)
		for j, l := range g.Items {
			if j > 0 {
				b = append(b, ',')
			}
			// An item is in the file of every topic of its cases: its
			// text, most of a topic's file, is encoded once.
			text := w.checkTexts[l.Item.Index]
			if text == nil {
				text = appendPair(nil, l.Item.Text.En, l.Item.Text.Ko)
				w.checkTexts[l.Item.Index] = text
			}
			b = append(append(b, `{"text":`...), text...)
			b = append(b, `,"cases":[`...)
			for k, f := range l.From {
				if k > 0 {
					b = append(b, ',')
				}
				b = appendString(append(b, `{"id":`...), f.Case.ID)
				if f.Status != "" {
					b = appendString(appendKey(b, "status"), f.Status)
				}
				if ref, ok := w.refs[f.Case.ID]; ok {
					b = append(appendKey(b, "json"), ref.json...)
				} else {
					b = appendString(appendKey(b, "json"), w.base+urls.APICase(f.Case.ID))
				}
				b = out.flush(append(b, '}'))
			}
			b = append(b, "]}"...)
		}
		b = append(b, "]}"...)
	}
	return append(b, ']')
}
