package cases

import "testing"

func TestFixID(t *testing.T) {
	for in, want := range map[string]string{
		"il-601": "IL-0601", "IL-601": "IL-0601", "il-0601": "IL-0601", "ab-1": "AB-0001", " il-123456 ": "IL-123456",
		"IL-0601": "IL-0601", "il601": "", "i-601": "", "il-60a": "", "il-1234567": "", "": "",
	} {
		if got := FixID(in); got != want {
			t.Errorf("FixID(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNextFreeID(t *testing.T) {
	lib := &Library{Cases: []*Case{{ID: "IL-0495"}, {ID: "IL-0011"}}, Drafts: []Draft{{ID: "IL-0523"}, {ID: "not-an-id"}}}
	if got := NextFreeID(lib); got != "IL-0524" {
		t.Errorf("NextFreeID = %s, want IL-0524 (after the draft)", got)
	}
	if got := NextFreeID(&Library{}); got != "IL-0001" {
		t.Errorf("NextFreeID of nothing = %s", got)
	}
	if got := NextFreeID(&Library{Cases: []*Case{{ID: "IL-9999"}}}); got != "IL-10000" {
		t.Errorf("NextFreeID after IL-9999 = %s", got)
	}
}
