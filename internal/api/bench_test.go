package api

import (
	"io/fs"
	"testing"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/library"
	"incidentlib/internal/site"
)

func benchSite(b *testing.B, n int) *site.Site {
	b.Helper()
	return benchSiteOf(b, gencases.MapFS(gencases.Options{N: n, Seed: 1}))
}

func benchSiteOf(b *testing.B, fsys fs.FS) *site.Site {
	b.Helper()
	lib, list := cases.Load(fsys)
	if list.Errors() > 0 {
		b.Fatal(list.Err())
	}
	s, err := site.New(library.Derive(lib), site.Options{Templates: incidentlib.Templates(), Static: incidentlib.Static()})
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
		if err := Write(s.Library(), s.Strings(), s.BaseURL(), discard); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(files), "files")
}

// BenchmarkWriteDir is BenchmarkWrite on a library loaded from a folder on
// disk, as a build loads it: every case file is read again from there.
func BenchmarkWriteDir(b *testing.B) {
	dir := b.TempDir()
	if err := gencases.WriteDir(dir, gencases.Options{N: 1000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	s := benchSiteOf(b, cases.ContentFS(dir))
	discard := func(path string, data []byte) error { return nil }
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(s.Library(), s.Strings(), s.BaseURL(), discard); err != nil {
			b.Fatal(err)
		}
	}
}
