package build

import (
	"strconv"

	"incidentlib/internal/cases"
	"incidentlib/internal/search"
	"incidentlib/internal/site"
)

// writeSearch builds the search index: one document per case holding both
// languages, with every controlled term's labels in both languages.
func writeSearch(s *site.Site, write func(string, []byte) error) error {
	lib := s.Library()
	docs := make([]search.Doc, len(lib.Cases))
	for i, c := range lib.Cases {
		d := search.Doc{
			ID: c.ID, Date: c.Date.String(),
			Title:   [2]string{c.Title.En, c.Title.Ko},
			Summary: [2]string{c.Summary.En, c.Summary.Ko},
			Org:     [2]string{c.Org, c.Org},
			URL:     [2]string{"en/cases/" + c.ID + "/", "ko/cases/" + c.ID + "/"},
			Facets: map[string][]string{
				"components": c.Components, "symptoms": c.Symptoms, "root-causes": {c.RootCause},
				"contributing": c.Contributing, "domains": c.Domain, "orgs": {c.OrgSlug},
				"years": {strconv.Itoa(c.Date.Year)},
			},
		}
		if c.Severity != "unknown" {
			d.Facets["severities"] = []string{c.Severity}
		}
		body := make([]string, 0, 2*(4+len(c.Remediation)+len(c.ActionItems)))
		add := func(t cases.Text) { body = append(body, t.En, t.Ko) }
		add(c.SymptomsText)
		add(c.Trigger)
		add(c.Detection)
		if c.Lessons != nil {
			add(*c.Lessons)
		}
		for _, t := range c.Remediation {
			add(t)
		}
		for _, t := range c.ActionItems {
			add(t)
		}
		d.Body = body
		docs[i] = d
	}
	labels := search.Labels{}
	for _, f := range cases.Facets {
		m := map[string][2]string{}
		for _, t := range s.Facets()[f].Topics {
			m[t.ID] = [2]string{t.Label.En, t.Label.Ko}
		}
		labels[f] = m
	}
	return search.Build(docs, labels, write)
}
