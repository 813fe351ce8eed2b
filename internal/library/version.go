package library

import (
	"strconv"

	"incidentlib/internal/cases"
)

// versionOf names a state of the content: the day of its latest change
// (a case's updated_at or withdrawal, in UTC) and how many changes that
// day holds, such as "2026-12-03.4". It comes from the content alone,
// never from the build machine's clock, so that two builds of the same
// content are byte-identical; an edit moves it forward, as the day or the
// count of that day's changes grows.
func versionOf(lib *cases.Library) string {
	var day string
	n := 0
	note := func(d string) {
		switch {
		case d > day:
			day, n = d, 1
		case d == day:
			n++
		}
	}
	for _, list := range [][]*cases.Case{lib.Cases, lib.Withdrawn} {
		for _, c := range list {
			if !c.Draft {
				note(c.UpdatedAt.UTC().Format("2006-01-02"))
			}
			if w := c.Withdrawn; w != nil {
				note(w.Date.String())
			}
		}
	}
	if day == "" {
		return "0"
	}
	return day + "." + strconv.Itoa(n)
}
