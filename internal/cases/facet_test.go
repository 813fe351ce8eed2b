package cases

import (
	"slices"
	"testing"
)

func TestFacetTable(t *testing.T) {
	want := []string{"components", "symptoms", "root-causes", "contributing", "domains", "orgs", "years", "products", "impact-levels", "severities"}
	if got := FacetNames(); !slices.Equal(got, want) {
		t.Errorf("FacetNames() = %v, want %v", got, want)
	}
	for field, facet := range map[string]string{"root_cause": "root-causes", "domain": "domains", "severity": "severities", "impact_level": "impact-levels", "": "", "orgs": "", "org_slug": ""} {
		got := ""
		if f := FacetOfField(field); f != nil {
			got = f.Name
		}
		if got != facet {
			t.Errorf("FacetOfField(%q) = %q, want %q", field, got, facet)
		}
	}
	seen := map[string]bool{}
	for _, f := range Facets {
		if seen[f.Name] || seen["field "+f.Field] && f.Field != "" {
			t.Errorf("%s: a name or field used twice", f.Name)
		}
		seen[f.Name], seen["field "+f.Field] = true, true
		if f.Label.En == "" || f.Label.Ko == "" || f.One.En == "" || f.One.Ko == "" || f.Intro.En == "" || f.Intro.Ko == "" || f.FilterDoc == "" {
			t.Errorf("%s: a label, intro or filter description is missing", f.Name)
		}
		if f.Controlled && (f.Field == "" || f.Kind == Derived) {
			t.Errorf("%s: a controlled facet needs a field of its own", f.Name)
		}
	}
	if got := len(ControlledFacets()); got != 7 {
		t.Errorf("%d controlled facets, want 7", got)
	}
}
