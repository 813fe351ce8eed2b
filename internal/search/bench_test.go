package search

import (
	"incidentlib/internal/tokenize"

	"strconv"
	"testing"

	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/repotest"
)

// libraryDocs loads a generated library of n cases and turns it into search
// documents as internal/build does, so that the benchmark sees text of
// the shape and length of real cases.
func libraryDocs(b testing.TB, n int) ([]Doc, Labels) {
	b.Helper()
	lib, list := cases.Load(gencases.MapFS(gencases.Options{N: n, Seed: 1}))
	if list.Errors() > 0 {
		b.Fatal(list.Err())
	}
	docs := make([]Doc, len(lib.Cases))
	for i, c := range lib.Cases {
		docs[i] = caseDoc(c, lib.Vocab.Glossary)
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

// BenchmarkBuildLibrary builds the index of a generated library of 1,000
// and 10,000 cases, discarding the files. Besides the wall time it reports
// the CPU time (user and system) per build, cpu-s/op, which a shared
// machine disturbs less.
func BenchmarkBuildLibrary(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			docs, labels := libraryDocs(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			start := repotest.CPUTime()
			for b.Loop() {
				if err := Build(docs, labels, false, func(string, []byte) error { return nil }); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((repotest.CPUTime()-start).Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}

// BenchmarkAnalyse finds the terms of a generated library of 1,000 cases,
// the part of the index build that reads every text with the tokenizer and
// numbers its terms, without the encoding and writing that follow.
func BenchmarkAnalyse(b *testing.B) {
	docs, labels := libraryDocs(b, 1000)
	sorted, err := sortDocs(docs)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := repotest.CPUTime()
	for b.Loop() {
		analyseSorted(sorted, labels)
	}
	b.ReportMetric((repotest.CPUTime()-start).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkAnalyse10000 is BenchmarkAnalyse over 10,000 cases, whose
// term tables and postings no longer fit in the caches of the CPU: where
// the reads of memory per term cost more than the instructions.
func BenchmarkAnalyse10000(b *testing.B) {
	docs, labels := libraryDocs(b, 10000)
	sorted, err := sortDocs(docs)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := repotest.CPUTime()
	for b.Loop() {
		analyseSorted(sorted, labels)
	}
	b.ReportMetric((repotest.CPUTime()-start).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkEachWord reads the texts of a generated library of 1,000 cases
// word by word through EachWord, as the narrative of related cases does.
func BenchmarkEachWord(b *testing.B) {
	docs, _ := libraryDocs(b, 1000)
	var texts []string
	for _, d := range docs {
		texts = append(texts, d.Title[0], d.Title[1], d.Summary[0], d.Summary[1])
		texts = append(texts, d.Body...)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := repotest.CPUTime()
	for b.Loop() {
		n := 0
		for _, t := range texts {
			tokenize.EachWord(t, func(term, raw []byte, hangul bool) { n += len(term) + len(raw) })
		}
	}
	b.ReportMetric((repotest.CPUTime()-start).Seconds()/float64(b.N), "cpu-s/op")
}
