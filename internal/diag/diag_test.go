package diag

import (
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	var l List
	for i := 0; i < 5; i++ {
		l.Errorf("a.json", 1, i+1, "", "a%d", i)
	}
	l.Errorf("b.json", 2, 1, "", "b0")
	for i := 0; i < 3; i++ {
		l.Warnf("c.md", 0, 0, "", "c%d", i)
	}
	var got []string
	l.Report(2, func(d Diag) { got = append(got, d.Msg) }, func(file string, left int) { got = append(got, More(file, left)) })
	want := "a0 a1 a.json: and 3 more problems b0 c0 c1 c.md: and 1 more problem"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("Report(2) = %q, want %q", s, want)
	}
	got = nil
	l.Report(10, func(d Diag) { got = append(got, d.Msg) }, func(file string, left int) { t.Errorf("%s: %d left out of 10", file, left) })
	if len(got) != len(l.Items) {
		t.Errorf("Report(10) showed %d of %d", len(got), len(l.Items))
	}
}
