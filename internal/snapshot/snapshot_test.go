package snapshot

import (
	"context"
	"path/filepath"
	"testing"

	"incidentlib"
	"incidentlib/internal/site"
)

// TestSearchOrgLabels checks the labels of the 조직 filter: an organisation
// as it writes its name (HubSpot, not 허브스팟) in both languages, a
// description translated, and the Korean spelling left to the documents,
// where it finds the case without being shown.
func TestSearchOrgLabels(t *testing.T) {
	fsys, err := Content(filepath.Join("..", "..", "content"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(context.Background(), fsys, Options{LoadTheme: func() (*site.Theme, error) {
		return site.LoadTheme(incidentlib.Templates(), incidentlib.Static())
	}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Site == nil {
		t.Fatal(s.Diags.Err(), s.Err)
	}
	docs, labels := s.SearchDocs()
	for id, want := range map[string][2]string{
		"hubspot":         {"HubSpot", "HubSpot"},
		"google-cloud":    {"Google Cloud", "Google Cloud"},
		"unnamed-company": {"Unnamed company", "이름을 밝히지 않은 회사"},
	} {
		if got := labels["orgs"][id]; got != want {
			t.Errorf("orgs label of %s = %q, want %q", id, got, want)
		}
	}
	found := false
	for _, d := range docs {
		if d.ID == "IL-0495" {
			found = d.OrgAlias == "허브스팟"
		}
	}
	if !found {
		t.Error("IL-0495's document has no 허브스팟 to be found by")
	}
}
