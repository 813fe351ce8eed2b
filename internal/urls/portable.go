package urls

import "strings"

// Reserved reports whether name, one part of a path, cannot be a file or
// folder on Windows, where the offline bundle is unpacked too: the names
// it keeps for devices (con, prn, aux, nul, com1-9, lpt1-9, conin$,
// conout$, and com and lpt with a superscript digit), in any case and
// with any extension ("con.json" is the device too), and names that end
// in a dot or a space, which it strips. Every name the site's paths are
// made of (slugs of terms, organisations and pages, the search index's
// file keys) keeps clear of these.
func Reserved(name string) bool {
	if name == "" {
		return false
	}
	if last := name[len(name)-1]; last == '.' || last == ' ' {
		return true
	}
	base, _, _ := strings.Cut(name, ".")
	base = strings.ToLower(strings.TrimRight(base, " "))
	switch base {
	case "con", "prn", "aux", "nul", "conin$", "conout$":
		return true
	}
	if len(base) >= 4 && (base[:3] == "com" || base[:3] == "lpt") {
		switch d := base[3:]; d {
		case "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
			return true
		}
	}
	return false
}
