package jsonpos

import (
	"strings"
	"testing"

	"incidentlib/internal/gencases"
)

// caseFile returns one generated case file, a typical input.
func caseFile(b *testing.B) string {
	for name, f := range gencases.MapFS(gencases.Options{N: 1, Seed: 1}) {
		if strings.HasPrefix(name, "cases/") {
			return string(f.Data)
		}
	}
	b.Fatal("no case file generated")
	return ""
}

// BenchmarkParse parses a case file into a tree of its own each time.
func BenchmarkParse(b *testing.B) {
	src := caseFile(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if d := Parse(src); d.Fatal || len(d.Problems) > 0 {
			b.Fatal(d.Problems)
		}
	}
}

// BenchmarkParser parses a case file again and again with one Parser, as
// loading does on each worker.
func BenchmarkParser(b *testing.B) {
	src := caseFile(b)
	var p Parser
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if d := p.Parse(src); d.Fatal || len(d.Problems) > 0 {
			b.Fatal(d.Problems)
		}
	}
}
