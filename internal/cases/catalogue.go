package cases

import (
	"io/fs"

	"incidentlib"
	"incidentlib/internal/l10n"
)

// Catalogue is the one string catalogue, templates/strings.json as the
// binary carries it: every word a reader or a client sees, in both
// languages. The pages read it through their theme (which a site owner may
// replace), the MCP answers read its "mcp." keys, the search page's script
// carries its "js." keys, and the facet table takes its words from the
// "facet." keys below. A key without one of the languages stops the
// program at start.
var Catalogue = func() l10n.Strings {
	data, err := fs.ReadFile(incidentlib.Templates(), "strings.json")
	if err == nil {
		var s l10n.Strings
		if s, err = l10n.ParseStrings(data); err == nil {
			return s
		}
	}
	panic("templates/strings.json: " + err.Error())
}()

// init gives every facet of the table its words from the catalogue:
// "facet.NAME.label", ".one" and ".intro" are required, ".top" only for a
// facet shown in the statistics.
func init() {
	for _, f := range Facets {
		f.Label, f.One, f.Intro = catalogued(f, "label"), catalogued(f, "one"), catalogued(f, "intro")
		if f.Show&InStats != 0 {
			f.Top = catalogued(f, "top")
		}
	}
}

// catalogued returns the catalogue's words for one facet and part.
func catalogued(f *Facet, part string) Bilingual {
	key := "facet." + f.Name + "." + part
	w, ok := Catalogue[key]
	if !ok {
		panic("templates/strings.json: no " + key + " for the facet table")
	}
	return Bilingual{w["en"], w["ko"]}
}
