package diag

import (
	"strings"
	"testing"
)

func TestBrief(t *testing.T) {
	var l List
	l.Errorf("cases/IL-0001.json", 1, 1, "title", "an error")
	particle := Diag{File: "cases/IL-0002.json", Line: 3, Col: 4, Field: "summary.ko", Warning: true,
		Msg: `particle written apart from the word before it: write "HubSpot은", not "HubSpot 은"`}
	future := Diag{File: "cases/IL-0003.json", Field: "updated_at", Warning: true, Msg: `"2099-01-01" is in the future`}
	for range 20 + 4102 {
		l.Add(particle)
	}
	for range 78 {
		l.Add(future)
	}
	l.Errorf("cases/IL-0004.json", 1, 1, "", "a late error")
	shown, more := l.Brief(ShownWarnings)
	if want := "and 4,180 more: 4,102 particle, 78 future date; run incidentlib check for all"; more != want {
		t.Errorf("summary\n%s, want\n%s", more, want)
	}
	if got := shown.Warnings(); got != ShownWarnings {
		t.Errorf("%d warnings shown, want %d", got, ShownWarnings)
	}
	// Every error stays, the one past MaxKept counted.
	if shown.Errors() != 2 || l.Errors() != 2 {
		t.Errorf("errors: %d shown of %d, want 2 of 2", shown.Errors(), l.Errors())
	}
	if !strings.Contains(shown.Items[0].Msg, "an error") {
		t.Errorf("first shown %v, want the error", shown.Items[0])
	}

	// A copy keeps its own counts.
	c := l
	c.Add(future)
	if _, m := l.Brief(ShownWarnings); m != more {
		t.Errorf("adding to a copy changed the original: %s", m)
	}
	var few List
	few.Add(particle)
	if _, m := few.Brief(ShownWarnings); m != "" {
		t.Errorf("one warning: summary %q, want none", m)
	}
}

func TestKind(t *testing.T) {
	for _, c := range []struct {
		d    Diag
		want string
	}{
		{Diag{Msg: "x"}, "error"},
		{Diag{Warning: true, Msg: "하다/되다 written apart from the word before it"}, "하다/되다"},
		{Diag{Warning: true, Msg: `glossary: write "파드", not "포드"`}, "glossary"},
		{Diag{Warning: true, Field: "summary.ko", Msg: "Korean translation missing: the Korean page shows the English text"}, "translation"},
		{Diag{Warning: true, Field: "sources[2].archived", Msg: "null: give the address of an archived copy"}, "archive"},
		{Diag{Warning: true, Msg: "not read: the name starts with a dot"}, "not read"},
		{Diag{Warning: true, Msg: "something new"}, "other"},
	} {
		if got := c.d.Kind(); got != c.want {
			t.Errorf("%v: kind %q, want %q", c.d, got, c.want)
		}
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 4180: "4,180", 1234567: "1,234,567", -4180: "-4,180"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
