package cases

import (
	"strings"
	"testing"

	"incidentlib/internal/gencases"
	"incidentlib/internal/jsonpos"
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

// BenchmarkLoadDir loads a generated 1,000-case library from a folder on
// disk through ContentFS, as a build does: the reading of the files and
// the jail around them included.
func BenchmarkLoadDir(b *testing.B) {
	dir := b.TempDir()
	if err := gencases.WriteDir(dir, gencases.Options{N: 1000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	fsys := ContentFS(dir)
	b.ReportAllocs()
	for b.Loop() {
		lib, list := Load(fsys)
		if list.Errors() > 0 || len(lib.Cases) != 1000 {
			b.Fatalf("%d cases, problems: %v", len(lib.Cases), list.Err())
		}
	}
}

// BenchmarkParticleGaps looks for particles written apart in every string
// of 1,000 generated case files, parsed beforehand.
func BenchmarkParticleGaps(b *testing.B) {
	fsys := gencases.MapFS(gencases.Options{N: 1000, Seed: 1})
	var docs []*jsonpos.Doc
	bytes := 0
	for name, f := range fsys {
		if strings.HasPrefix(name, CasesDir+"/") {
			docs = append(docs, jsonpos.Parse(string(f.Data)))
			bytes += len(f.Data)
		}
	}
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			jsonParticleGaps(d.Source(), d.Root)
		}
	}
}
