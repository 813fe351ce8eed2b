package api

import (
	"encoding/json"
	"slices"
	"testing"

	"incidentlib/internal/cases"
	"incidentlib/internal/repotest"
	"incidentlib/internal/urls"
)

// TestPrepareFiles reads what #42 adds to the API on the fixture: a case's
// affected versions in cases.json, a product's topic, and a component's
// checklist linking its cases.
func TestPrepareFiles(t *testing.T) {
	files := written(t, repotest.PrepareContent(t))
	var list listDoc
	if err := json.Unmarshal(files[urls.APICases], &list); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range list.Cases {
		if c.ID == "IL-0081" {
			found = len(c.Affected) == 1 && c.Affected[0].Product == "ingress-nginx" && c.Affected[0].Introduced == "1.9.0" && c.Affected[0].Fixed == "v1.12.1"
		}
	}
	if !found {
		t.Error("cases.json does not give IL-0081's affected versions")
	}
	var product topicDoc
	if err := json.Unmarshal(files[urls.APITopic(cases.Products.Name, "ingress-nginx")], &product); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(product.Cases, "IL-0081") || !slices.Contains(product.Cases, "IL-0054") || slices.Contains(product.Cases, "IL-0535") {
		t.Errorf("the ingress-nginx topic lists %v", product.Cases)
	}
	var topic topicDoc
	if err := json.Unmarshal(files[urls.APITopic(cases.Components.Name, "ingress")], &topic); err != nil {
		t.Fatal(err)
	}
	if len(topic.Checklist) == 0 {
		t.Fatal("the ingress topic has no checklist")
	}
	linked := map[string]bool{}
	for _, g := range topic.Checklist {
		for _, it := range g.Items {
			for _, c := range it.Cases {
				linked[c.ID] = true
			}
		}
	}
	for id := range linked {
		if !slices.Contains(topic.Cases, id) {
			t.Errorf("the ingress checklist links %s, which is not an ingress case", id)
		}
	}
}
