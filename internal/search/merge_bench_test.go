package search

import "testing"

// BenchmarkSortMerge sorts the terms of each part of a 10,000-case
// analysis and merges them: the step between reading the texts and
// encoding the postings, in which every comparison of two terms may read
// two strings out of the cache.
func BenchmarkSortMerge(b *testing.B) {
	docs, labels := libraryDocs(b, 10000)
	sorted, err := sortDocs(docs)
	if err != nil {
		b.Fatal(err)
	}
	ix := &analysed{docs: sorted, lengths: make([]float64, len(sorted))}
	const n = 2
	for p := range n {
		pt := &part{}
		for i := p * len(sorted) / n; i < (p+1)*len(sorted)/n; i++ {
			pt.add(&sorted[i], int32(i), labels)
		}
		pt.sortTerms()
		pt.pack()
		ix.parts = append(ix.parts, pt)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, pt := range ix.parts {
			pt.sortTerms()
		}
		ix.terms, ix.counts, ix.word = nil, nil, nil
		ix.merge()
	}
	b.ReportMetric(float64(len(ix.terms)), "terms")
}
