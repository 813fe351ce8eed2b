package search

import (
	"strconv"
	"testing"

	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
)

// libraryDocs loads a generated library of n cases and turns it into search
// documents the way internal/build does, so that the benchmark sees text of
// the shape and length of real cases.
func libraryDocs(b *testing.B, n int) ([]Doc, Labels) {
	b.Helper()
	lib, list := cases.Load(gencases.MapFS(gencases.Options{N: n, Seed: 1}))
	if list.Errors() > 0 {
		b.Fatal(list.Err())
	}
	docs := make([]Doc, len(lib.Cases))
	for i, c := range lib.Cases {
		d := Doc{
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
		texts := append([]cases.Text{c.SymptomsText, c.Trigger, c.Detection}, c.Remediation...)
		texts = append(texts, c.ActionItems...)
		if c.Lessons != nil {
			texts = append(texts, *c.Lessons)
		}
		for _, t := range texts {
			d.Body = append(d.Body, t.En, t.Ko)
		}
		docs[i] = d
	}
	labels := Labels{}
	for f, field := range cases.FacetField {
		m := map[string][2]string{}
		for _, t := range lib.Vocab.Terms(field) {
			m[t.ID] = [2]string{t.Label.En, t.Label.Ko}
		}
		labels[f] = m
	}
	return docs, labels
}

// BenchmarkBuildLibrary builds the index of a generated 1,000-case library,
// discarding the files.
func BenchmarkBuildLibrary(b *testing.B) {
	docs, labels := libraryDocs(b, 1000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := Build(docs, labels, func(string, []byte) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}
