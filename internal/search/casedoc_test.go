package search

import (
	"os"
	"testing"

	"incidentlib/internal/cases"
)

// TestOrgNames checks that search shows an organisation as the case pages
// do, as the organisation writes it (HubSpot, not 허브스팟), in the record,
// the 조직 filter's labels and the results, while its Korean spelling still
// finds it; and that a description (Unnamed company) reads in Korean.
func TestOrgNames(t *testing.T) {
	lib, list := cases.Load(os.DirFS("../../content"))
	if list.Errors() != 0 {
		t.Fatalf("%+v", list.Items)
	}
	var docs []Doc
	at := map[string]int{}
	for _, c := range lib.Cases {
		at[c.ID] = len(docs)
		docs = append(docs, caseDoc(c, lib.Vocab.Glossary))
	}
	hub := docs[at["IL-0495"]]
	if hub.Org != [2]string{"HubSpot", "HubSpot"} || hub.OrgAlias != "허브스팟" {
		t.Errorf("IL-0495: Org %q, OrgAlias %q; want HubSpot shown in both languages, 허브스팟 a synonym", hub.Org, hub.OrgAlias)
	}
	if r := makeRecord(&hub, 160); r.Org[1] != "HubSpot" {
		t.Errorf("Korean record shows the organisation as %q", r.Org)
	}
	if d := docs[at["IL-0081"]]; d.Org != [2]string{"Unnamed company", "이름을 밝히지 않은 회사"} {
		t.Errorf("IL-0081: Org %q", d.Org)
	}
	f := facetFile("orgs", docs, nil)
	for _, term := range f.Terms {
		if term.ID == "hubspot" && term.Label != [2]string{"HubSpot", "HubSpot"} {
			t.Errorf("the 조직 filter labels hubspot %q", term.Label)
		}
	}
	r := NewEngine(docs, nil).Search("허브스팟", nil)
	if r.Total == 0 || r.Hits[0].Doc != at["IL-0495"] {
		t.Errorf("허브스팟 finds %+v, want IL-0495 first", r.Hits)
	}
}
