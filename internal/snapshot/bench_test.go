package snapshot

import (
	"context"
	"testing"

	"incidentlib"
	"incidentlib/internal/gencases"
	"incidentlib/internal/site"
)

// BenchmarkNew makes a snapshot of 1,000 generated cases in a folder on
// disk, the theme given: the loading, the checks and the deriving of the
// site (topics, narrative words, related cases), everything a build waits
// for before its pages start.
func BenchmarkNew(b *testing.B) {
	dir := b.TempDir()
	if err := gencases.WriteDir(dir, gencases.Options{N: 1000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	fsys, err := Content(dir)
	if err != nil {
		b.Fatal(err)
	}
	theme, err := site.LoadTheme(incidentlib.Templates(), incidentlib.Static())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s, err := New(context.Background(), fsys, Options{Theme: theme})
		if err != nil || s.Site == nil {
			b.Fatal(err, s.Diags.Err(), s.Err)
		}
	}
}
