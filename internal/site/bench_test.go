package site

import (
	"bytes"
	"testing"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/library"
	"incidentlib/internal/repotest"
)

func benchSite(b *testing.B, n int) *Site {
	b.Helper()
	lib, list := cases.Load(gencases.MapFS(gencases.Options{N: n, Seed: 1}))
	if list.Errors() > 0 {
		b.Fatal(list.Err())
	}
	s, err := New(library.Derive(lib), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static()})
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
			b.ReportAllocs()
			var out bytes.Buffer
			for i := 0; i < b.N; i++ {
				out.Reset()
				if _, err := s.Render(jobs[i%len(jobs)], &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuildPages renders every page and Markdown twin of a 1,000-case
// library as a build does, one after the other, into memory, the case pages
// first: the figures are per whole site. Cards are dropped before each run,
// so that every run renders them as a build does once.
func BenchmarkBuildPages(b *testing.B) {
	s := benchSite(b, 1000)
	var jobs []Job
	for _, j := range s.Jobs() {
		if j.Kind == KindCase {
			jobs = append(jobs, j)
		}
	}
	for _, j := range s.Jobs() {
		if j.Kind != KindCase {
			jobs = append(jobs, j)
		}
	}
	var out, twin bytes.Buffer
	b.ReportAllocs()
	start := repotest.CPUTime()
	for b.Loop() {
		s.ReleaseCards()
		for _, j := range jobs {
			out.Reset()
			twin.Reset()
			var err error
			if j.Kind == KindCase {
				err = s.RenderCase(j, &out, &twin)
			} else {
				_, err = s.Render(j, &out)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	// The CPU time, user and system, says more than the wall time on a
	// shared machine.
	b.ReportMetric((repotest.CPUTime()-start).Seconds()/float64(b.N), "cpu-s/op")
}

// BenchmarkLoadTheme parses, compacts and compiles the shipped templates
// and minifies and hashes the static files: a fixed cost of every build.
func BenchmarkLoadTheme(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadTheme(incidentlib.Templates(), incidentlib.Static()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExtras writes, on a 1,000-case library, each kind of output
// beside the pages: every topic feed, every file of the prepare page and
// the Markdown twin of every case; the figures are per whole kind, with
// what the site keeps for a build (cards, feed entries) dropped before
// each run, and in CPU time (user and system) as well, which says more
// than the wall time on a shared machine.
func BenchmarkExtras(b *testing.B) {
	s := benchSite(b, 1000)
	byKind := map[Kind][]Job{}
	for _, j := range s.Jobs() {
		byKind[j.Kind] = append(byKind[j.Kind], j)
	}
	run := func(b *testing.B, write func(out *bytes.Buffer, i int) error, n int) {
		var out bytes.Buffer
		size := 0
		start := repotest.CPUTime()
		for b.Loop() {
			s.ReleaseCards()
			size = 0
			for i := range n {
				out.Reset()
				if err := write(&out, i); err != nil {
					b.Fatal(err)
				}
				size += out.Len()
			}
		}
		b.ReportMetric(float64(size), "bytes")
		b.ReportMetric((repotest.CPUTime()-start).Seconds()/float64(b.N), "cpu-s/op")
	}
	for _, k := range []struct {
		name string
		kind Kind
	}{{"topicfeeds", KindTopicFeed}, {"preparefiles", KindPrepareData}} {
		jobs := byKind[k.kind]
		b.Run(k.name, func(b *testing.B) {
			run(b, func(out *bytes.Buffer, i int) error {
				_, err := s.Render(jobs[i], out)
				return err
			}, len(jobs))
		})
	}
	b.Run("twins", func(b *testing.B) {
		var list []*CaseView
		for _, j := range byKind[KindCase] {
			v, err := (views{s}).caseView(j, true)
			if err != nil {
				b.Fatal(err)
			}
			list = append(list, v)
		}
		run(b, func(out *bytes.Buffer, i int) error { return (twins{s}).twin(out, list[i], false) }, len(list))
	})
}

// BenchmarkDurationCharts draws the charts of the times to detect and to
// resolve of every topic of a 1,000-case library, in both languages, as
// the topics' statistics blocks do once each; the figures are per whole
// library.
func BenchmarkDurationCharts(b *testing.B) {
	s := benchSite(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		for _, name := range cases.FacetNames() {
			for _, tp := range s.topics[name].Topics {
				for _, lang := range cases.Languages {
					(&pageView{Lang: lang, s: s}).durationCharts(tp.Cases, "dist-")
				}
			}
		}
	}
}
