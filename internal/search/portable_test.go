package search

import (
	"testing"

	"incidentlib/internal/urls"
)

// TestFileKeyPortable (#39 row 16): no boundary gives a file name that
// Windows reserves (at 3,000 cases a bucket began at "con"), and keys stay
// apart.
func TestFileKeyPortable(t *testing.T) {
	seen := map[string]string{}
	for _, s := range []string{"con", "nul", "aux", "prn", "com1", "lpt9", "con_", "cons", "", "_", "conin$"} {
		k := fileKey(s)
		if urls.Reserved(k) || urls.Reserved(k+".json") {
			t.Errorf("fileKey(%q) = %q, a name Windows reserves", s, k)
		}
		if prev, ok := seen[k]; ok {
			t.Errorf("fileKey(%q) = fileKey(%q) = %q", s, prev, k)
		}
		seen[k] = s
	}
	// The same table as js-test/engine.test.js holds search.js's fileKey to.
	for s, want := range map[string]string{"con": "con_", "com1": "com1_", "lpt9": "lpt9_", "cons": "cons", "com10": "com10", "": "-", "con.": "con-002e"} {
		if got := fileKey(s); got != want {
			t.Errorf("fileKey(%q) = %q, want %q", s, got, want)
		}
	}
}
