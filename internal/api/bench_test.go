package api

import (
	"testing"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/search"
	"incidentlib/internal/site"
)

func benchSite(b *testing.B, n int) *site.Site {
	b.Helper()
	lib, list := cases.Load(gencases.MapFS(gencases.Options{N: n, Seed: 1}))
	if list.Errors() > 0 {
		b.Fatal(list.Err())
	}
	s, err := site.New(lib, site.Options{Words: search.EachWord, Templates: incidentlib.Templates(), Static: incidentlib.Static()})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkWrite writes the whole API of a 1,000-case library to nowhere.
func BenchmarkWrite(b *testing.B) {
	s := benchSite(b, 1000)
	var files, size int
	discard := func(path string, data []byte) error {
		files++
		size += len(data)
		return nil
	}
	b.ReportAllocs()
	for b.Loop() {
		files, size = 0, 0
		if err := Write(s, discard); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(files), "files")
}
