package search

import (
	"incidentlib/internal/cases"
	"incidentlib/internal/urls"
)

// CaseDoc is the document of a case: both languages of its text, and its
// terms by facet as they appear in URLs. The organisation's Korean name is
// the one vocab.json gives it (cases.Case.OrgKo), or its own name.
func CaseDoc(c *cases.Case) Doc {
	orgKo := c.OrgKo
	if orgKo == "" {
		orgKo = c.Org
	}
	d := Doc{
		ID: c.ID, Date: c.Date.String(), Published: c.DateKind == "published",
		Title:   [2]string{c.Title.En, c.Title.Ko},
		Summary: [2]string{c.Summary.En, c.Summary.Ko},
		Org:     [2]string{c.Org, orgKo},
		URL:     [2]string{urls.Case("en", c.ID), urls.Case("ko", c.ID)},
		Facets:  make(map[string][]string, len(cases.Facets)),
	}
	c.EachTerm(func(facet, id string) {
		if facet == "severities" && id == "unknown" {
			return
		}
		d.Facets[facet] = append(d.Facets[facet], id)
	})
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
	return d
}
