package search

import (
	"testing"

	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
)

// libraryDocs loads a generated library of n cases and turns it into search
// documents as internal/build does, so that the benchmark sees text of
// the shape and length of real cases.
func libraryDocs(b *testing.B, n int) ([]Doc, Labels) {
	b.Helper()
	lib, list := cases.Load(gencases.MapFS(gencases.Options{N: n, Seed: 1}))
	if list.Errors() > 0 {
		b.Fatal(list.Err())
	}
	docs := make([]Doc, len(lib.Cases))
	for i, c := range lib.Cases {
		docs[i] = CaseDoc(c)
	}
	labels := Labels{}
	for _, f := range cases.ControlledFacets() {
		m := map[string][2]string{}
		for _, t := range lib.Vocab.Terms(f.Field) {
			m[t.ID] = [2]string{t.Label.En, t.Label.Ko}
		}
		labels[f.Name] = m
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
		if err := Build(docs, labels, false, func(string, []byte) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}
