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

// BenchmarkDownloads makes the downloads alone (cases.jsonl, cases.csv,
// the zip, sources.json and changes.json) of a 10,000-case library, from
// the case files as Write reads them: what they add to a build.
func BenchmarkDownloads(b *testing.B) {
	s := benchSite(b, 10000)
	l := s.Library()
	raws := make([][]byte, len(l.Lib.Cases))
	for i, c := range l.Lib.Cases {
		raw, err := c.AppendRaw(nil)
		if err != nil {
			b.Fatal(err)
		}
		raws[i] = raw
	}
	size := 0
	discard := func(path string, data []byte) error { size += len(data); return nil }
	kept := map[string][]byte{}
	for _, p := range zipExtras {
		kept[p] = []byte("{}")
	}
	for b.Loop() {
		size = 0
		w := &writer{l: l, str: s.Strings(), lib: l.Lib, base: s.BaseURL(), write: discard, create: buffered(discard)}
		if err := w.startBulk(); err != nil {
			b.Fatal(err)
		}
		for i, c := range l.Lib.Cases {
			if err := w.bulk.addCase(c, raws[i]); err != nil {
				b.Fatal(err)
			}
		}
		for _, step := range []func() error{func() error { return w.finishBulk(kept) }, w.sources, w.changes} {
			if err := step(); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(size)/1e6, "MB")
}
