package watch

import "testing"

func TestScratch(t *testing.T) {
	for name, want := range map[string]bool{
		"IL-0495.json": false, "case.html": false, ".IL-0495.json.swp": true, "IL-0495.json~": true,
		"4913": true, "#case.html#": true, "site.css": false, "x.tmp": true,
	} {
		if scratch(name) != want {
			t.Errorf("scratch(%q) = %v", name, !want)
		}
	}
}
