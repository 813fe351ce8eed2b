package site

import (
	"bytes"
	"testing"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
)

// TestCompiledTemplates checks that every template of the theme compiles,
// so that no page quietly falls back to html/template, and that compiled
// execution writes exactly what html/template writes, for every page of the
// library and of a generated one, online and offline.
func TestCompiledTemplates(t *testing.T) {
	th, err := LoadTheme(incidentlib.Templates(), incidentlib.Static())
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range append(pageKinds, "card") {
		if th.fast[kind] == nil {
			t.Errorf("template %s does not compile; pages of this kind render with html/template", kind)
		}
	}
	gen, list := cases.Load(gencases.MapFS(gencases.Options{N: 150, Seed: 3}))
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	for _, lib := range []*cases.Library{loadContent(t, contentFS(t)), gen} {
		for _, offline := range []bool{false, true} {
			s, err := New(lib, Options{Theme: th, Offline: offline})
			if err != nil {
				t.Fatal(err)
			}
			pages := 0
			for _, j := range s.Jobs() {
				view, kind, err := s.view(j)
				if err != nil || view == nil {
					continue // not a templated page
				}
				var fast, std bytes.Buffer
				if err := th.fast[kind].Execute(&fast, view); err != nil {
					t.Fatalf("%s: %v", j.Path, err)
				}
				if err := th.tmpl[kind].ExecuteTemplate(&std, "base", view); err != nil {
					t.Fatalf("%s: %v", j.Path, err)
				}
				if !bytes.Equal(fast.Bytes(), std.Bytes()) {
					t.Fatalf("%s: compiled output differs from html/template's:\n%s", j.Path, firstDiff(fast.String(), std.String()))
				}
				pages++
			}
			for _, c := range lib.Cases[:min(len(lib.Cases), 40)] {
				for _, lang := range cases.Languages {
					card := s.card(&Page{Lang: lang, s: s}, c)
					var fast, std bytes.Buffer
					if err := th.fast["card"].Execute(&fast, card); err != nil {
						t.Fatal(err)
					}
					if err := th.tmpl["list"].ExecuteTemplate(&std, "card", card); err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(fast.Bytes(), std.Bytes()) {
						t.Fatalf("card %s %s differs:\n%s", lang, c.ID, firstDiff(fast.String(), std.String()))
					}
				}
			}
			if pages < 100 {
				t.Fatalf("only %d pages compared", pages)
			}
		}
	}
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
	keepWhitespace = true
	loose, err := LoadTheme(incidentlib.Templates(), incidentlib.Static())
	keepWhitespace = false
	if err != nil {
		t.Fatal(err)
	}
	tight, err := LoadTheme(incidentlib.Templates(), incidentlib.Static())
	if err != nil {
		t.Fatal(err)
	}
	lib := loadContent(t, contentFS(t))
	sl, err := New(lib, Options{Theme: loose})
	if err != nil {
		t.Fatal(err)
	}
	st, err := New(lib, Options{Theme: tight})
	if err != nil {
		t.Fatal(err)
	}
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
