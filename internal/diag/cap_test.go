package diag

import (
	"strings"
	"testing"
)

// TestCap (#39 row 13): a list keeps the first MaxKept problems and counts
// the rest, so that a file of a million problems takes no more memory than
// a thousand; merged lists keep the cap and the counts.
func TestCap(t *testing.T) {
	var l List
	for i := range 3 * MaxKept {
		if i%3 == 0 {
			l.Warnf("a", 1, 1, "", "w")
		} else {
			l.Errorf("a", 1, 1, "", "e")
		}
	}
	if len(l.Items) != MaxKept || l.Errors() != 2*MaxKept || l.Warnings() != MaxKept || l.Dropped() != 2*MaxKept {
		t.Errorf("kept %d, %d errors, %d warnings, %d dropped", len(l.Items), l.Errors(), l.Warnings(), l.Dropped())
	}
	var m List
	m.Errorf("b", 1, 1, "", "e")
	m.Merge(l)
	if len(m.Items) != MaxKept || m.Errors() != 2*MaxKept+1 || m.Dropped() != 2*MaxKept+1 {
		t.Errorf("merged: kept %d, %d errors, %d dropped", len(m.Items), m.Errors(), m.Dropped())
	}
	if err := m.Err(); err == nil || !strings.Contains(err.Error(), "more problems") {
		t.Errorf("the error does not say how many are left out: %.100v", err)
	}
}
