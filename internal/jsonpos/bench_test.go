package jsonpos

import (
	"testing"

	"incidentlib/internal/gencases"
)

// BenchmarkParse parses one generated case file, a typical input.
func BenchmarkParse(b *testing.B) {
	fsys := gencases.MapFS(gencases.Options{N: 1, Seed: 1})
	var src string
	for name, f := range fsys {
		if len(name) > 6 && name[:6] == "cases/" {
			src = string(f.Data)
		}
	}
	if src == "" {
		b.Fatal("no case file generated")
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if d := Parse(src); d.Fatal || len(d.Problems) > 0 {
			b.Fatal(d.Problems)
		}
	}
}
