package cases

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"incidentlib/internal/diag"
	"incidentlib/internal/gencases"
	"incidentlib/internal/repotest"
)

// contentFS copies the real content folder into memory, with every case's
// updated_at set to one past time (IL-0495's of 2026-11-14): tests that fix
// the clock must not depend on when a case was last revised.
func contentFS(t testing.TB) fstest.MapFS {
	m := repotest.MapFS(t, "content")
	for name, f := range m {
		if strings.HasPrefix(name, "cases/") {
			f.Data = pastUpdate.ReplaceAll(f.Data, []byte(`${1}"2026-11-14T12:34:13.999947Z"`))
		}
	}
	return m
}

// pastUpdate finds a case file's updated_at and the spacing after its key.
var pastUpdate = regexp.MustCompile(`("updated_at":\s*)"[^"]*"`)

// edit rewrites a case file through a decoded map.
func edit(t *testing.T, m fstest.MapFS, name string, change func(c map[string]any)) {
	t.Helper()
	var c map[string]any
	if err := json.Unmarshal(m[name].Data, &c); err != nil {
		t.Fatal(err)
	}
	change(c)
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	m[name] = &fstest.MapFile{Data: append(b, '\n')}
}

func diagLines(l diag.List) string {
	var b strings.Builder
	for _, d := range l.Items {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// TestReloadMatchesLoad applies a series of edits, one after another, and
// checks after each that Reload gives what a full Load of the same files
// gives: the same cases in the same order, the same pages and topics and
// every problem with the same position and words.
func TestReloadMatchesLoad(t *testing.T) {
	m := contentFS(t)
	const a, b = "cases/IL-0495.json", "cases/IL-0338.json"
	steps := []struct {
		name    string
		changed []string
		do      func(t *testing.T)
		errors  bool // whether the content has errors after the step
	}{
		{"retitle", []string{a}, func(t *testing.T) {
			edit(t, m, a, func(c map[string]any) { c["title"].(map[string]any)["en"] = "A new title" })
		}, false},
		{"invalid JSON", []string{a}, func(t *testing.T) {
			m[a] = &fstest.MapFile{Data: []byte("{\n  \"id\": \"IL-0495\",\n  oops\n}\n")}
		}, true},
		{"unrelated save while broken", []string{b}, func(t *testing.T) {
			edit(t, m, b, func(c map[string]any) { c["title"].(map[string]any)["ko"] = "새 제목" })
		}, true},
		{"fixed but unknown term", []string{a}, func(t *testing.T) {
			m[a] = &fstest.MapFile{Data: contentFS(t)[a].Data}
			edit(t, m, a, func(c map[string]any) { c["components"] = []any{"ingres"} })
		}, true},
		{"missing translation warning", []string{a}, func(t *testing.T) {
			edit(t, m, a, func(c map[string]any) {
				c["components"] = []any{"ingress"}
				c["summary"].(map[string]any)["ko"] = ""
			})
		}, false},
		{"warning kept across other saves", []string{b}, func(t *testing.T) {
			edit(t, m, b, func(c map[string]any) { c["title"].(map[string]any)["en"] = "Second" })
		}, false},
		{"dangling link and org conflict", []string{b}, func(t *testing.T) {
			edit(t, m, b, func(c map[string]any) {
				c["related"] = []any{"IL-0495", "IL-9999"}
				c["recurrence_of"] = "IL-0338"
				c["org_slug"] = "hubspot"
			})
		}, true},
		{"link target removed, no change event", nil, func(t *testing.T) {
			delete(m, a)
		}, true},
		{"duplicate id added", []string{"cases/IL-0001.json"}, func(t *testing.T) {
			m[a] = &fstest.MapFile{Data: contentFS(t)[a].Data}
			m["cases/IL-0001.json"] = &fstest.MapFile{Data: contentFS(t)[a].Data}
		}, true},
		{"first holder of the id renamed away", []string{a, "cases/IL-0001.json"}, func(t *testing.T) {
			delete(m, a)
		}, true},
		{"stray files and a folder", []string{"cases/notes.txt", "cases/old/x.json", "cases/.swp"}, func(t *testing.T) {
			m["cases/notes.txt"] = &fstest.MapFile{Data: []byte("x")}
			m["cases/old/x.json"] = &fstest.MapFile{Data: []byte("{}")}
			m["cases/.swp"] = &fstest.MapFile{Data: []byte("x")}
		}, true},
		{"everything back", []string{a, b, "cases/IL-0001.json"}, func(t *testing.T) {
			orig := contentFS(t)
			m[a], m[b] = orig[a], orig[b]
			delete(m, "cases/IL-0001.json")
			delete(m, "cases/notes.txt")
			delete(m, "cases/old/x.json")
			delete(m, "cases/.swp")
		}, false},
		{"topic and page edits", []string{"topics/components/ingress.en.md", "pages/about.en.md", "topics/components/nosuch.en.md"}, func(t *testing.T) {
			m["topics/components/ingress.en.md"] = &fstest.MapFile{Data: []byte("New intro.\n")}
			m["pages/about.en.md"] = &fstest.MapFile{Data: []byte("# About\n\nNew.\n")}
			m["topics/components/nosuch.en.md"] = &fstest.MapFile{Data: []byte("x\n")}
		}, true},
		{"vocab change is a full load", []string{"vocab.json"}, func(t *testing.T) {
			delete(m, "topics/components/nosuch.en.md")
			var v map[string]any
			if err := json.Unmarshal(m["vocab.json"].Data, &v); err != nil {
				t.Fatal(err)
			}
			v["components"] = v["components"].([]any)[1:]
			data, _ := json.Marshal(v)
			m["vocab.json"] = &fstest.MapFile{Data: data}
		}, true},
	}
	lib, list := Load(m)
	if list.Errors() > 0 {
		t.Fatalf("the content has errors before any edit:\n%s", diagLines(list))
	}
	for _, st := range steps {
		st.do(t)
		old, oldList := lib, list
		lib, list = Reload(lib, list, m, st.changed)
		want, wantList := Load(m)
		if got, w := diagLines(list), diagLines(wantList); got != w {
			t.Fatalf("%s: problems differ\nreload:\n%s\nload:\n%s", st.name, got, w)
		}
		if (list.Errors() > 0) != st.errors {
			t.Errorf("%s: %d errors, want errors=%v:\n%s", st.name, list.Errors(), st.errors, diagLines(list))
		}
		if len(lib.Cases) != len(want.Cases) || len(lib.ByID) != len(want.ByID) {
			t.Fatalf("%s: %d cases (%d by id), want %d (%d)", st.name, len(lib.Cases), len(lib.ByID), len(want.Cases), len(want.ByID))
		}
		for i, c := range lib.Cases {
			w := want.Cases[i]
			if c.ID != w.ID || c.File != w.File || c.Title != w.Title || c.rawSum != w.rawSum || lib.ByID[c.ID] != c {
				t.Fatalf("%s: case %d is %s (%s), want %s (%s)", st.name, i, c.ID, c.File, w.ID, w.File)
			}
		}
		if len(lib.Prose) != len(want.Prose) || lib.Topics["components"]["ingress"] != want.Topics["components"]["ingress"] {
			t.Errorf("%s: pages or topics differ from a full load", st.name)
		}
		for i := range lib.Prose {
			if lib.Prose[i] != want.Prose[i] {
				t.Errorf("%s: page %s differs from a full load", st.name, lib.Prose[i].Slug)
			}
		}
		if st.name == "retitle" || st.name == "warning kept across other saves" {
			// Cases that were not touched, and had no problem to report
			// again, are the same values.
			mentioned := map[string]bool{st.changed[0]: true}
			for _, d := range oldList.Items {
				mentioned[d.File] = true
			}
			for _, c := range lib.Cases {
				if shared := old.ByID[c.ID] == c; shared == mentioned[c.File] {
					t.Errorf("%s: %s shared with the previous library: %v", st.name, c.File, shared)
				}
			}
			if old.ByID["IL-0495"].Title.En == "A new title" && st.name == "retitle" {
				t.Errorf("%s: the previous library was modified", st.name)
			}
		}
	}
}

// TestReloadNilIsLoad checks that a first Reload without a library loads.
func TestReloadNilIsLoad(t *testing.T) {
	m := contentFS(t)
	lib, list := Reload(nil, diag.List{}, m, nil)
	want, wantList := Load(m)
	if len(lib.Cases) != len(want.Cases) || diagLines(list) != diagLines(wantList) {
		t.Errorf("Reload(nil) gave %d cases, want %d", len(lib.Cases), len(want.Cases))
	}
}

// BenchmarkReloadParts times each part of a Reload after a one-case edit at
// 10,000 generated cases, and the full cross-file check it replaces.
func BenchmarkReloadParts(b *testing.B) {
	dir := b.TempDir()
	if err := gencases.WriteDir(dir, gencases.Options{N: 10000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	fsys := os.DirFS(dir)
	lib, list := Load(fsys)
	if list.Errors() > 0 {
		b.Fatalf("generated library has errors:\n%s", diagLines(list))
	}
	name := lib.Cases[len(lib.Cases)/2].File
	b.Run("Reload", func(b *testing.B) {
		for b.Loop() {
			Reload(lib, list, fsys, []string{name})
		}
	})
	b.Run("listCases", func(b *testing.B) {
		for b.Loop() {
			listCases(fsys, &diag.List{})
		}
	})
	b.Run("loadCase", func(b *testing.B) {
		var cr caseReader
		dir := openFolder(fsys, CasesDir)
		defer dir.close()
		for b.Loop() {
			loadCase(fsys, name, dir, &lib.Vocab, nil, &cr)
		}
	})
	b.Run("crossCheck", func(b *testing.B) {
		for b.Loop() {
			crossCheck(lib, &diag.List{})
		}
	})
	b.Run("checkLinks", func(b *testing.B) {
		for b.Loop() {
			checkLinks(lib, &diag.List{}, recurrenceRings(lib))
		}
	})
	b.Run("sort", func(b *testing.B) {
		cs := append([]*Case(nil), lib.Cases...)
		for b.Loop() {
			cs[0], cs[len(cs)-1] = cs[len(cs)-1], cs[0]
			SortNewestFirst(cs)
		}
	})
	b.Run("pages+topics", func(b *testing.B) {
		for b.Loop() {
			var l diag.List
			loadProse(fsys, nil, &l)
			loadTopics(fsys, &Library{Vocab: lib.Vocab, Topics: map[string]map[string]Bilingual{}}, &l)
		}
	})
}
