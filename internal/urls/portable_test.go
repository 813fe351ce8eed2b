package urls

import "testing"

// TestReserved (#39 row 16): the names Windows keeps for devices, in any
// case and with any extension, and names ending in a dot or a space, are
// reserved; names that merely start like them are not.
func TestReserved(t *testing.T) {
	for _, name := range []string{"con", "CON", "nul", "aux", "prn", "com1", "com9", "lpt1", "LPT9", "con.json", "nul.tar.gz", "a.", "a ", "conin$", "conout$", "com¹"} {
		if !Reserved(name) {
			t.Errorf("%q is not reserved", name)
		}
	}
	for _, name := range []string{"cons", "console", "com", "com0", "com10", "lpt", "nullable", "auxiliary", "a.b", "x_", "_", "con_", "con_.json"} {
		if Reserved(name) {
			t.Errorf("%q is reserved", name)
		}
	}
}
