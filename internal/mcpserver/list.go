package mcpserver

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/search"
)

type listOutput struct {
	Lang       string     `json:"lang" jsonschema:"the language of the answer"`
	Total      int        `json:"total" jsonschema:"number of cases that pass the filters"`
	Cases      []caseItem `json:"cases" jsonschema:"this page, newest first"`
	NextCursor string     `json:"next_cursor,omitempty" jsonschema:"pass as cursor for the next page; absent on the last page"`
	Notes      []string   `json:"notes,omitempty" jsonschema:"what the server changed or ignored in the call"`
}

// cursor is where a page of list_incidents ends: the last case's date and
// id, the order of the list, so that the next page starts at the right
// place even when that case was removed in between.
type cursor struct {
	date cases.Date
	id   string
}

func (c cursor) String() string {
	return fmt.Sprintf("%s@%d.%d.%d", c.id, c.date.Year, c.date.Month, c.date.Day)
}

func parseCursor(s string) (cursor, bool) {
	id, date, ok := strings.Cut(s, "@")
	var c cursor
	var y, m, d int
	if !ok || !cases.IsID(id) {
		return c, false
	}
	if n, err := fmt.Sscanf(date, "%d.%d.%d", &y, &m, &d); n != 3 || err != nil || m < 0 || m > 12 || d < 0 || d > 31 {
		return c, false
	}
	c.id = id
	c.date.Year, c.date.Month, c.date.Day = y, time.Month(m), d
	return c, true
}

// after reports whether case c comes after the cursor in the list's order
// (newest first, then by id).
func (cur cursor) after(c *cases.Case) bool {
	if c.Date != cur.date {
		return c.Date.Before(cur.date)
	}
	return c.ID > cur.id
}

// filtered returns the cases that pass f, in the library's order (newest
// first), from the topics the site derived.
func (m *model) filtered(f search.Filter) []*cases.Case {
	if len(f) == 0 {
		return m.lib.Cases
	}
	hits := make([]int, len(m.lib.Cases))
	seen := make([]int, len(m.lib.Cases)) // last facet (1-based) that counted a case
	k := 0
	for facet, ids := range f {
		k++
		fc := m.model.Topics()[facet]
		for _, id := range ids {
			t := fc.Topic(id)
			if t == nil {
				continue
			}
			for _, c := range t.Cases {
				if i := m.index[c]; seen[i] != k {
					seen[i] = k
					hits[i]++
				}
			}
		}
	}
	var out []*cases.Case
	for i, n := range hits {
		if n == k {
			out = append(out, m.lib.Cases[i])
		}
	}
	return out
}

func listIncidents(m *model, c *call) (string, any, error) {
	out := listOutput{Lang: c.lang}
	n := limit(c, listDefault, listMax)
	f, err := m.filter(c)
	if err != nil {
		return "", nil, err
	}
	all, err := m.byVersion(c, m.filtered(f))
	if err != nil {
		return "", nil, err
	}
	from := 0
	if arg := c.str("cursor"); arg != "" {
		cur, ok := parseCursor(arg)
		if !ok {
			return "", nil, c.fail("err.cursor", echo(arg))
		}
		from, _ = slices.BinarySearchFunc(all, cur, func(c *cases.Case, cur cursor) int {
			if cur.after(c) {
				return 1
			}
			return -1
		})
	}
	page := all[from:min(from+n, len(all))]
	out.Total = len(all)
	out.Cases = make([]caseItem, len(page))
	for i, cs := range page {
		out.Cases[i] = m.item(cs, c.lang)
	}
	if from+len(page) < len(all) {
		last := page[len(page)-1]
		out.NextCursor = cursor{last.Date, last.ID}.String()
	}

	var b strings.Builder
	filters := describe(c, f)
	if len(page) == 0 {
		b.WriteString(c.t("list.head_none", l10n.Cases(c.lang, out.Total), filters))
		if out.Total > 0 {
			b.WriteString(" " + c.t("list.none_after"))
		}
		b.WriteByte('\n')
	} else {
		b.WriteString(c.t("list.head", l10n.Cases(c.lang, out.Total), filters, l10n.Range(c.lang, from+1, from+len(page), out.Total)) + "\n")
		writeItems(&b, c, out.Cases)
	}
	if out.NextCursor != "" {
		b.WriteString("\n" + c.t("list.more", strconv.Quote(out.NextCursor)) + "\n")
	}
	out.Notes = c.notes
	return b.String(), out, nil
}
