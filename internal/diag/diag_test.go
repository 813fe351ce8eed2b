package diag

import (
	"reflect"
	"testing"
)

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
