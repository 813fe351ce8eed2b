package diag

import (
	"reflect"
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

func TestUnseen(t *testing.T) {
	var before, other, now List
	before.Warnf("a.json", 1, 1, "x", "old warning")
	before.Errorf("a.json", 2, 1, "y", "old error")
	other.Warnf("b.json", 1, 1, "", "other warning")
	now.Warnf("a.json", 1, 1, "x", "old warning")
	now.Errorf("a.json", 2, 1, "y", "old error")
	now.Warnf("b.json", 1, 1, "", "other warning")
	now.Warnf("c.json", 3, 4, "z", "new warning")
	var got []string
	for _, d := range now.Unseen(before, other) {
		got = append(got, d.String())
	}
	want := []string{"a.json:2:1: y: old error", "c.json:3:4: warning: z: new warning"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Unseen = %q, want %q", got, want)
	}
	if n := len(now.Unseen()); n != 4 {
		t.Errorf("Unseen() kept %d of 4", n)
	}
}
