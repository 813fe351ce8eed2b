package library

import (
	"testing"

	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/repotest"
	"incidentlib/internal/tokenize"
)

// BenchmarkNarrative derives the narrative keys of a 1,000-case library,
// the part of deriving a library that reads every story with the search
// tokenizer.
func BenchmarkNarrative(b *testing.B) {
	lib, list := cases.Load(gencases.MapFS(gencases.Options{N: 1000, Seed: 1}))
	if list.Errors() > 0 {
		b.Fatal(list.Err())
	}
	b.ReportAllocs()
	start := repotest.CPUTime()
	for b.Loop() {
		deriveNarrative(lib, tokenize.EachWord)
	}
	// The narrative reads on every CPU: its CPU time, user and system,
	// says more than the wall time on a shared machine.
	b.ReportMetric((repotest.CPUTime()-start).Seconds()/float64(b.N), "cpu-s/op")
}
