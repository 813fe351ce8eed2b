package cases

import (
	"testing"

	"incidentlib/internal/gencases"
)

// BenchmarkLoad loads a generated 1,000-case library from memory: reading,
// parsing with positions, the schema check, conversion and the checks
// across cases.
func BenchmarkLoad(b *testing.B) {
	fsys := gencases.MapFS(gencases.Options{N: 1000, Seed: 1})
	b.ReportAllocs()
	for b.Loop() {
		lib, list := Load(fsys)
		if list.Errors() > 0 || len(lib.Cases) != 1000 {
			b.Fatalf("%d cases, problems: %v", len(lib.Cases), list.Err())
		}
	}
}
