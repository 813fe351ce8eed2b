package cases

import (
	"testing"
	"testing/fstest"
)

// TestReloadEditedIsReload applies edits one after another and checks
// after each that ReloadEdited takes the edits it is for, refuses the
// others, and, when it takes one, gives what a full Load gives: the same
// cases in the same order, the edited ones read again, the others shared,
// and every problem with the same position and words (a warning that moves
// with the edited text included).
func TestReloadEditedIsReload(t *testing.T) {
	m := contentFS(t)
	const a, b, d = "cases/IL-0495.json", "cases/IL-0338.json", "cases/IL-9002.json"
	steps := []struct {
		name    string
		changed []string
		do      func(t *testing.T)
		ok      bool
		merged  bool // the library given has its drafts among its cases, as the preview's
	}{
		{"retitle", []string{a}, func(t *testing.T) {
			edit(t, m, a, func(c map[string]any) { c["title"].(map[string]any)["en"] = "A new title" })
		}, true, false},
		{"two cases, one a new component", []string{a, b}, func(t *testing.T) {
			edit(t, m, a, func(c map[string]any) { c["summary"].(map[string]any)["ko"] = "새 요약." })
			edit(t, m, b, func(c map[string]any) { c["components"] = append(c["components"].([]any), "ingress") })
		}, true, false},
		{"organisation missing from vocab.json", []string{b}, func(t *testing.T) {
			edit(t, m, b, func(c map[string]any) { c["org"], c["org_slug"] = "Acme Widgets", "acme-widgets" })
		}, false, false},
		{"its warning moves with the text", []string{b}, func(t *testing.T) {
			edit(t, m, b, func(c map[string]any) { c["domain"] = append(c["domain"].([]any), "kubernetes") })
		}, true, false},
		{"related cases", []string{a}, func(t *testing.T) {
			edit(t, m, a, func(c map[string]any) { c["related"] = []any{"IL-0338"} })
		}, false, false},
		{"date", []string{a}, func(t *testing.T) {
			edit(t, m, a, func(c map[string]any) { c["date"] = "2024-08-28" })
		}, false, false},
		{"draft", []string{a}, func(t *testing.T) {
			edit(t, m, a, func(c map[string]any) { c["draft"] = true })
		}, false, false},
		{"back from draft", []string{a}, func(t *testing.T) {
			edit(t, m, a, func(c map[string]any) { delete(c, "draft") })
		}, false, false},
		{"an error", []string{a}, func(t *testing.T) {
			edit(t, m, a, func(c map[string]any) { c["components"] = []any{"ingres"} })
		}, false, false},
		{"fixed", []string{a}, func(t *testing.T) {
			edit(t, m, a, func(c map[string]any) { c["components"] = []any{"ingress"} })
		}, false, false},
		{"removed", []string{a}, func(t *testing.T) { delete(m, a) }, false, false},
		{"not a case file", []string{"pages/about.en.md"}, func(t *testing.T) {
			m["pages/about.en.md"] = &fstest.MapFile{Data: []byte("# About\n\nNew.\n")}
		}, false, false},
		{"restored", []string{a}, func(t *testing.T) { m[a] = contentFS(t)[a] }, false, false},
		{"a draft added", []string{d}, func(t *testing.T) {
			edit(t, m, b, func(c map[string]any) {})
			m[d] = &fstest.MapFile{Data: m[b].Data}
			edit(t, m, d, func(c map[string]any) { c["id"], c["draft"] = "IL-9002", true })
		}, false, false},
		{"the draft edited", []string{d}, func(t *testing.T) {
			edit(t, m, d, func(c map[string]any) { c["title"].(map[string]any)["en"] = "A draft's title" })
		}, true, true},
		{"a case edited beside it", []string{b}, func(t *testing.T) {
			edit(t, m, b, func(c map[string]any) { c["title"].(map[string]any)["en"] = "Beside a draft" })
		}, true, true},
		{"the draft with an error", []string{d}, func(t *testing.T) {
			edit(t, m, d, func(c map[string]any) { c["components"] = []any{"ingres"} })
		}, true, false},
		{"a text edit after all that", []string{b}, func(t *testing.T) {
			edit(t, m, b, func(c map[string]any) { c["title"].(map[string]any)["ko"] = "새 제목" })
		}, true, false},
	}
	lib, list := Load(m)
	if list.Errors() > 0 {
		t.Fatalf("the content has errors before any edit:\n%s", diagLines(list))
	}
	warned := false
	for _, st := range steps {
		st.do(t)
		given := lib
		if st.merged {
			given = lib.WithDrafts()
			if given == lib {
				t.Fatalf("%s: no draft to merge", st.name)
			}
		}
		got, gotList, ok := ReloadEdited(given, list, m, st.changed)
		if ok != st.ok {
			t.Fatalf("%s: ReloadEdited took it: %v, want %v", st.name, ok, st.ok)
		}
		if !ok {
			lib, list = Reload(lib, list, m, st.changed)
			continue
		}
		want, wantList := Load(m)
		if g, w := diagLines(gotList), diagLines(wantList); g != w {
			t.Fatalf("%s: problems differ\nedited:\n%s\nload:\n%s", st.name, g, w)
		}
		if len(got.Cases) != len(want.Cases) || len(got.ByID) != len(want.ByID) || len(got.Withdrawn) != len(want.Withdrawn) {
			t.Fatalf("%s: %d cases (%d by id), want %d (%d)", st.name, len(got.Cases), len(got.ByID), len(want.Cases), len(want.ByID))
		}
		edited := map[string]bool{}
		for _, f := range st.changed {
			edited[f] = true
		}
		for i, c := range got.Cases {
			w := want.Cases[i]
			if c.ID != w.ID || c.File != w.File || c.Title != w.Title || c.rawSum != w.rawSum || got.ByID[c.ID] != c ||
				len(c.Components) != len(w.Components) || len(c.Domain) != len(w.Domain) {
				t.Fatalf("%s: case %d is %s (%s), want %s (%s)", st.name, i, c.ID, c.File, w.ID, w.File)
			}
			if shared := lib.ByID[c.ID] == c; shared == edited[c.File] {
				t.Errorf("%s: %s shared with the library before: %v", st.name, c.File, shared)
			}
		}
		if len(got.Drafts) != len(want.Drafts) {
			t.Fatalf("%s: %d drafts, want %d", st.name, len(got.Drafts), len(want.Drafts))
		}
		for i, g := range got.Drafts {
			w := want.Drafts[i]
			if g.ID != w.ID || g.File != w.File || (g.Case == nil) != (w.Case == nil) || diagLines(g.Problems) != diagLines(w.Problems) ||
				(g.Case != nil && g.Case.Title != w.Case.Title) {
				t.Errorf("%s: draft %s differs from a full load's", st.name, g.File)
			}
		}
		for _, d := range gotList.Items {
			warned = warned || (d.File == b && d.Field == "org_slug")
		}
		lib, list = got, gotList
	}
	if !warned {
		t.Error("no step had the organisation's warning on an edited case")
	}
}
