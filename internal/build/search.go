package build

import (
	"incidentlib/internal/cases"
	"incidentlib/internal/search"
	"incidentlib/internal/site"
)

// writeSearch builds the search index. Only the offline bundle gets the
// script copies of the index files that pages opened from file:// need.
func writeSearch(s *site.Site, write func(string, []byte) error) error {
	docs, labels := SearchDocs(s)
	return search.Build(docs, labels, s.Offline(), write)
}

// SearchDocs returns what the search index is built from: one document per
// case, in the library's order, holding both languages, and every
// controlled term's labels in both languages. The MCP server searches the
// same documents in memory, so that it answers as the site's search does.
func SearchDocs(s *site.Site) ([]search.Doc, search.Labels) {
	lib := s.Library()
	docs := make([]search.Doc, len(lib.Cases))
	for i, c := range lib.Cases {
		docs[i] = search.CaseDoc(c)
	}
	labels := search.Labels{}
	for _, f := range cases.FacetNames() {
		m := map[string][2]string{}
		for _, t := range s.Facets()[f].Topics {
			// An organisation's label is its name as the case pages show
			// it (HubSpot in both languages); its Korean spelling in
			// vocab.json only finds it, as each document's OrgAlias.
			m[t.ID] = [2]string{t.Label.En, t.Label.Ko}
		}
		labels[f] = m
	}
	return docs, labels
}
