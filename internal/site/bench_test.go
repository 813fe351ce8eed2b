package site

import (
	"bytes"
	"testing"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
)

func benchSite(b *testing.B, n int) *Site {
	b.Helper()
	lib, list := cases.Load(gencases.MapFS(gencases.Options{N: n, Seed: 1}))
	if list.Errors() > 0 {
		b.Fatal(list.Err())
	}
	s, err := New(lib, Options{Templates: incidentlib.Templates(), Static: incidentlib.Static()})
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkRender renders every page kind of a 1,000-case library; the
// figures are per page, without writing.
func BenchmarkRender(b *testing.B) {
	s := benchSite(b, 1000)
	byKind := map[Kind][]Job{}
	for _, j := range s.Jobs() {
		byKind[j.Kind] = append(byKind[j.Kind], j)
	}
	for _, k := range []struct {
		name string
		kind Kind
	}{{"case", KindCase}, {"topic", KindTopic}, {"cases", KindCases}} {
		jobs := byKind[k.kind]
		b.Run(k.name, func(b *testing.B) {
			var raw, out bytes.Buffer
			for i := 0; i < b.N; i++ {
				raw.Reset()
				out.Reset()
				j := jobs[i%len(jobs)]
				typ, err := s.Render(j, &raw)
				if err != nil {
					b.Fatal(err)
				}
				if err := Minify(&out, typ, raw.Bytes()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
