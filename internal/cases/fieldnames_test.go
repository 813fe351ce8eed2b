package cases

import (
	"strings"
	"testing"
)

// TestFieldNames: every member of a case has a name in the catalogue
// ("field.action_items": action items, 후속 조치), which the changes feeds
// use for the fields an update touched, and the catalogue names no member
// a case does not have.
func TestFieldNames(t *testing.T) {
	members := map[string]bool{}
	for _, p := range CaseSchema.Props {
		if p.Name == "$schema" {
			continue
		}
		members[p.Name] = true
		w, ok := Catalogue["field."+p.Name]
		if !ok || w["en"] == "" || w["ko"] == "" {
			t.Errorf("templates/strings.json: no field.%s in both languages", p.Name)
		}
	}
	for key := range Catalogue {
		if name, ok := strings.CutPrefix(key, "field."); ok && !members[name] {
			t.Errorf("templates/strings.json: %s names no member of a case", key)
		}
	}
	if len(members) < 30 {
		t.Fatalf("the case schema has %d members: not the schema", len(members))
	}
}
