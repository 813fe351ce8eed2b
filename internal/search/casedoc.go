package search

import (
	"incidentlib/internal/cases"
	"incidentlib/internal/urls"
)

// caseDoc is the document of a case: both languages of its text, and its
// terms by facet as they appear in URLs. The organisation is shown as the
// case pages show it (cases.Case.OrgName: HubSpot in both languages); its
// Korean spelling (허브스팟) only finds it, and so do the other forms of the
// glossary's terms that its Korean text writes (g.Synonyms).
func caseDoc(c *cases.Case, g *cases.Glossary) Doc {
	d := Doc{
		ID: c.ID, Date: c.Date.String(), Published: c.DateKind == "published",
		Title:    [2]string{c.Title.En, c.Title.Ko},
		Summary:  [2]string{c.Summary.En, c.Summary.Ko},
		Org:      [2]string{c.Org, c.OrgName().Ko},
		OrgAlias: c.OrgAlias,
		URL:      [2]string{urls.Case("en", c.ID), urls.Case("ko", c.ID)},
		Facets:   make(map[string][]string, len(cases.Facets)),
	}
	c.EachTerm(func(f *cases.Facet, id string) {
		if f.Shows(cases.InSearch) && f.HasTopic(id) {
			d.Facets[f.Name] = append(d.Facets[f.Name], id)
		}
	})
	body := make([]string, 0, 2*(4+len(c.Remediation)+len(c.ActionItems)))
	add := func(t cases.Bilingual) { body = append(body, t.En, t.Ko) }
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
		add(t.Text)
	}
	d.Body = body
	if g != nil {
		korean := make([]string, 0, 2+len(body)/2)
		korean = append(korean, c.Title.Ko, c.Summary.Ko)
		for i := 1; i < len(body); i += 2 {
			korean = append(korean, body[i])
		}
		d.Synonyms = g.Synonyms(korean...)
	}
	return d
}

// Docs returns what the search index is built from: one document per case
// of lib, in the library's order, holding both languages.
func Docs(lib *cases.Library) []Doc {
	docs := make([]Doc, len(lib.Cases))
	for i, c := range lib.Cases {
		docs[i] = caseDoc(c, lib.Vocab.Glossary)
	}
	return docs
}
