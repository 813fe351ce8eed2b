package site

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/htmlexec"
	"incidentlib/internal/library"
	"incidentlib/internal/repotest"
)

// TestCompiledTemplates checks that every template of the theme compiles,
// so that no page quietly falls back to html/template, and that compiled
// execution writes exactly what html/template writes: for every templated
// page of the shipped library, of a generated one and of the shipped one
// with hostile text in every field, online and offline, and for the card of
// every case. A page whose view fails fails the test.
func TestCompiledTemplates(t *testing.T) {
	th, err := LoadTheme(incidentlib.Templates(), incidentlib.Static())
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range append(slices.Clone(pageKinds), listParts...) {
		if th.fast[kind] == nil {
			t.Errorf("template %s does not compile; pages of this kind render with html/template", kind)
		}
	}
	for _, l := range engineLibraries(t) {
		for _, offline := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/offline=%v", l.name, offline), func(t *testing.T) {
				s, err := New(library.Derive(l.lib), Options{Theme: th, Offline: offline})
				if err != nil {
					t.Fatal(err)
				}
				counts := compareEngines(t, th, s, l.check)
				for _, want := range templatedJobs() {
					if counts[want] == 0 {
						t.Errorf("no %s page compared", want)
					}
				}
				t.Logf("pages and cards compared: %v", counts)
			})
		}
	}
}

type engineLibrary struct {
	name  string
	lib   *cases.Library
	check func(t *testing.T, path string, page []byte) // more checks on each page, or nil
}

// engineLibraries are the libraries both engines render: the shipped one, a
// generated one of 300 cases and the hostile one; with -short, the small
// library (repotest.SmallCases), 30 generated cases and the small library
// made hostile.
func engineLibraries(t *testing.T) []engineLibrary {
	n := 300
	if testing.Short() {
		n = 30
	}
	gen, list := cases.Load(gencases.MapFS(gencases.Options{N: n, Seed: 3}))
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	return []engineLibrary{
		{"content", loadContent(t, repotest.ContentMapFS(t)), nil},
		{"generated", gen, nil},
		{"hostile", loadContent(t, hostileContent(t)), checkDefused},
	}
}

// jobKindNames name the kinds of templated page.
var jobKindNames = map[Kind]string{
	KindCase: "case", KindCases: "cases", KindTopic: "topic", KindFacet: "facet", KindHome: "home",
	KindRoot: "root", KindSearch: "search", KindProse: "prose", KindNotFound: "notfound", KindAPIDoc: "apidoc", KindPrepare: "prepare",
}

// untemplated are the kinds of job no template renders.
var untemplated = map[Kind]bool{KindFeed: true, KindTopicFeed: true, KindChanges: true, KindSitemap: true, KindRobots: true, KindAsset: true, KindPrepareData: true}

func jobKey(j Job) string { return jobKindNames[j.Kind] + "/" + j.Lang }

// templatedJobs lists the keys (kind and language) every library must have
// pages of: every templated kind in each of its languages.
func templatedJobs() []string {
	var keys []string
	for k := range jobKindNames {
		switch k {
		case KindRoot, KindNotFound:
			keys = append(keys, jobKey(Job{Kind: k}))
		default:
			for _, lang := range cases.Languages {
				keys = append(keys, jobKey(Job{Kind: k, Lang: lang}))
			}
		}
	}
	return keys
}

// compareEngines renders every templated page of s, and the card of every
// case in both languages, with the compiled templates and with
// html/template, and so the statistics of every topic and every case as a
// line of a short list (caselinkhead), the times case by case (dists) and
// the whole checklist of every topic's cases (checklist), fails on the first
// difference and counts the pages by kind and language ("card/ko" for
// cards, "stats/ko" for statistics).
func compareEngines(t *testing.T, th *Theme, s *Site, check func(*testing.T, string, []byte)) map[string]int {
	t.Helper()
	counts := map[string]int{}
	var fast, std bytes.Buffer
	compare := func(what string, ft *htmlexec.Template, kind, name string, data any) {
		if ft == nil {
			t.Fatalf("%s: template %s does not compile", what, kind)
		}
		fast.Reset()
		std.Reset()
		if err := ft.Execute(&fast, data); err != nil {
			t.Fatalf("%s: compiled: %v", what, err)
		}
		if err := th.tmpl[kind].ExecuteTemplate(&std, name, data); err != nil {
			t.Fatalf("%s: html/template: %v", what, err)
		}
		if !bytes.Equal(fast.Bytes(), std.Bytes()) {
			t.Fatalf("%s: compiled output differs from html/template's:\n%s", what, firstDiff(fast.String(), std.String()))
		}
		if check != nil {
			check(t, what, std.Bytes())
		}
	}
	for _, j := range s.Jobs() {
		if untemplated[j.Kind] {
			continue
		}
		if jobKindNames[j.Kind] == "" {
			t.Fatalf("%s: job kind %d is neither templated nor known to be untemplated", j.Path, j.Kind)
		}
		view, kind, err := s.view(j)
		if err != nil || view == nil {
			t.Fatalf("%s: no view: %v", j.Path, err)
		}
		compare(j.File(), th.fast[kind], kind, "base", view)
		counts[jobKey(j)]++
	}
	for _, c := range s.lib.Cases {
		for _, lang := range cases.Languages {
			compare("card "+lang+" "+c.ID, th.fast["card"], "list", "card", (&pageView{Lang: lang, s: s}).card(c, nil))
			counts["card/"+lang]++
			l, err := newCaseLink(s, &pageView{Lang: lang, s: s}, c)
			if err != nil {
				t.Fatal(err)
			}
			compare("case line "+lang+" "+c.ID, th.fast["caselinkhead"], "list", "caselinkhead", l)
		}
	}
	for _, name := range cases.FacetNames() {
		for _, tp := range s.topics[name].Topics {
			for _, lang := range cases.Languages {
				v := (&pageView{Lang: lang, s: s}).statsView(tp.Stats(), name, tp.ID)
				if v == nil {
					continue
				}
				compare("stats "+lang+" "+name+"/"+tp.ID, th.fast["stats"], "list", "stats", statsBlock{&pageView{Lang: lang, s: s}, v})
				counts["stats/"+lang]++
				if v.Durations = (&pageView{Lang: lang, s: s}).durationCharts(tp.Cases, "dist-"); len(v.Durations) > 0 {
					compare("dists "+lang+" "+name+"/"+tp.ID, th.fast["dists"], "list", "dists", statsBlock{&pageView{Lang: lang, s: s}, v})
					counts["dists/"+lang]++
				}
				// The checklist of a topic's cases, whole, as the prepare
				// page's files carry it (prepareData).
				if groups := (&pageView{Lang: lang, s: s}).checklist(s.model.Checklist().For(tp.Cases)); len(groups) > 0 {
					compare("checklist "+lang+" "+name+"/"+tp.ID, th.fast["checklist"], "list", "checklist", groups)
					counts["checklist/"+lang]++
				}
			}
		}
	}
	return counts
}

func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-80)
	return "compiled:      " + a[from:min(len(a), i+80)] + "\nhtml/template: " + b[from:min(len(b), i+80)]
}

// TestCompactChangesNoPage renders every page with templates compacted and
// as written; a real minifier makes the same page of both, so compacting
// removed only what it would have, and the compacted page is within a few
// percent of the minified size.
func TestCompactChangesNoPage(t *testing.T) {
	loose, err := loadTheme(incidentlib.Templates(), incidentlib.Static(), themeConfig{keepWhitespace: true, compile: htmlexec.Compile})
	if err != nil {
		t.Fatal(err)
	}
	tight, err := LoadTheme(incidentlib.Templates(), incidentlib.Static())
	if err != nil {
		t.Fatal(err)
	}
	lib := loadContent(t, repotest.ContentMapFS(t))
	sl, st := twoSites(t, lib, loose, tight)
	var compacted, minified int
	for _, j := range st.Jobs() {
		a, typ, err := st.RenderBytes(j)
		if err != nil || typ != "text/html" {
			continue
		}
		b, _, err := sl.RenderBytes(j)
		if err != nil {
			t.Fatal(err)
		}
		var ma, mb bytes.Buffer
		if err := minifier.Minify("text/html", &ma, bytes.NewReader(a)); err != nil {
			t.Fatal(err)
		}
		if err := minifier.Minify("text/html", &mb, bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(ma.Bytes(), mb.Bytes()) {
			t.Fatalf("%s: compacting the templates changed the page:\n%s", j.Path, firstDiff(ma.String(), mb.String()))
		}
		if len(a) >= len(b) {
			t.Errorf("%s: compacting saved nothing (%d bytes)", j.Path, len(a))
		}
		compacted += len(a)
		minified += mb.Len()
	}
	if over := float64(compacted)/float64(minified) - 1; over > 0.03 {
		t.Errorf("compacted pages are %.1f%% larger than minified ones", over*100)
	} else {
		t.Logf("compacted pages: %d bytes, minified: %d (+%.2f%%)", compacted, minified, over*100)
	}
}
