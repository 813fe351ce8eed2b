package htmlexec_test

import (
	"bytes"
	"testing"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/htmlexec"
	"incidentlib/internal/library"
	"incidentlib/internal/site"
)

// BenchmarkPages renders the same pages of a generated library of 1,000
// cases twice: with the theme compiled by htmlexec, and with the same theme
// left to html/template (as when htmlexec refuses it). The figures are per
// page, rendered into memory: building the page's view and resolving its
// links are in both, so the difference between the two is the engines'.
// A list page shows cards rendered once per case and kept, as in a build:
// they are rendered before the timing starts.
func BenchmarkPages(b *testing.B) {
	lib, list := cases.Load(gencases.MapFS(gencases.Options{N: 1000, Seed: 1}))
	if list.Errors() > 0 {
		b.Fatal(list.Err())
	}
	fast := newSite(b, lib)
	restore := htmlexec.Refuse()
	slow := newSite(b, lib)
	restore()
	if e := fast.Engines(); len(e.Uncompiled) > 0 {
		b.Fatalf("htmlexec left %v to html/template", e.Uncompiled)
	}
	// Refuse stops the HTML templates; the Markdown twin's text template,
	// which these pages do not use, still compiles.
	if e := slow.Engines(); len(e.Uncompiled) < 10 {
		b.Fatalf("htmlexec left only %v to html/template although refused", e.Uncompiled)
	}
	byKind := map[site.Kind][]site.Job{}
	for _, j := range fast.Jobs() {
		byKind[j.Kind] = append(byKind[j.Kind], j)
	}
	for _, k := range []struct {
		name string
		kind site.Kind
	}{{"case", site.KindCase}, {"topic", site.KindTopic}, {"cases", site.KindCases}, {"facet", site.KindFacet}, {"home", site.KindHome}} {
		jobs := byKind[k.kind]
		// The two engines write the same bytes, or the figures compare
		// nothing. Rendering every page once also renders every card,
		// which both sites keep, so that no run of the loop pays for them.
		for _, j := range jobs {
			a, _, errA := fast.RenderBytes(j)
			c, _, errC := slow.RenderBytes(j)
			if errA != nil || errC != nil || !bytes.Equal(a, c) {
				b.Fatalf("%s: the engines differ (%v, %v)", j.File(), errA, errC)
			}
		}
		for _, e := range []struct {
			name string
			s    *site.Site
		}{{"htmlexec", fast}, {"html-template", slow}} {
			b.Run(k.name+"/"+e.name, func(b *testing.B) {
				b.ReportAllocs()
				var out bytes.Buffer
				n := 0
				for b.Loop() {
					out.Reset()
					if _, err := e.s.Render(jobs[n%len(jobs)], &out); err != nil {
						b.Fatal(err)
					}
					n++
				}
			})
		}
	}
}

func newSite(b *testing.B, lib *cases.Library) *site.Site {
	b.Helper()
	th, err := site.LoadTheme(incidentlib.Templates(), incidentlib.Static())
	if err != nil {
		b.Fatal(err)
	}
	s, err := site.New(library.Derive(lib), site.Options{Theme: th})
	if err != nil {
		b.Fatal(err)
	}
	return s
}
