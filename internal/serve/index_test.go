package serve

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"incidentlib"
	"incidentlib/internal/build"
	"incidentlib/internal/library"
	"incidentlib/internal/repotest"
	"incidentlib/internal/site"
)

// TestIndexFollowsEdits: after each save the preview finds every file of
// the site, with the job a fresh index of the new site has (its case and
// topic those of the new library), and no other file, whether the save
// kept the index (a text edit), changed the entries of some topics (a case
// into and out of topics, one of them its own) or indexed afresh (a case
// added and removed).
func TestIndexFollowsEdits(t *testing.T) {
	dir := repotest.CopyDir(t, "content")
	srv, err := New(Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: dir})
	if err != nil {
		t.Fatal(err)
	}
	a, o := filepath.Join(dir, "cases", "IL-0495.json"), filepath.Join(dir, "cases", "IL-0642.json") // o alone is about OpenShift
	added := filepath.Join(dir, "cases", "IL-9001.json")
	steps := []struct {
		name    string
		changed string
		do      func()
		kept    bool // the index is the one before: the site has the same files
	}{
		{"retitle", a, func() {
			editCase(t, a, func(c map[string]any) { c["title"].(map[string]any)["en"] = "Index test" })
		}, true},
		{"into a topic", a, func() {
			editCase(t, a, func(c map[string]any) { c["components"] = append(c["components"].([]any), "cdn") })
		}, true}, // the topic has a page, as before
		{"out of its own topic", o, func() {
			editCase(t, o, func(c map[string]any) { delete(c, "affected") })
		}, false},
		{"back into it", o, func() {
			editCase(t, o, func(c map[string]any) {
				c["affected"] = []any{map[string]any{"product": "openshift", "versions": []any{"4.5.20"}}}
			})
		}, false},
		{"a case added", added, func() {
			b, err := os.ReadFile(a)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(added, bytes.Replace(b, []byte(`"IL-0495"`), []byte(`"IL-9001"`), 1), 0o644); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"and removed", added, func() {
			if err := os.Remove(added); err != nil {
				t.Fatal(err)
			}
		}, false},
	}
	for _, st := range steps {
		before := srv.live.Current()
		st.do()
		rel, _ := filepath.Rel(dir, st.changed)
		m := srv.live.Apply(library.Change{Content: []string{filepath.ToSlash(rel)}}, st.name)
		if m.site == nil {
			t.Fatalf("%s: %v", st.name, m.problems.Items)
		}
		if kept := m.index == before.index; kept != st.kept {
			t.Errorf("%s: index kept: %v, want %v", st.name, kept, st.kept)
		}
		want := newIndex(m.site).base
		for f, w := range want {
			if g, ok := m.job(f); !ok || g != w {
				t.Fatalf("%s: %s is %+v (%v), want %+v", st.name, f, g, ok, w)
			}
		}
		for _, files := range []map[string]site.Job{m.index.base, m.index.over} {
			for f := range files {
				if _, ok := m.job(f); ok && want[f] == (site.Job{}) {
					t.Errorf("%s: %s is found, but is no file of the site", st.name, f)
				}
			}
		}
		for _, j := range m.site.Jobs() {
			if g, ok := m.job(j.File()); !ok || g != j {
				t.Errorf("%s: %s (of site.Jobs) is %+v (%v), want %+v", st.name, j.File(), g, ok, j)
			}
		}
	}
}

// TestEditServesAsFresh: after saves that change a case's text and its
// topics, what the preview serves (the case page in both languages, the
// pages and feeds of the topics it left and joined, its Markdown twin, and
// every file of the search index and the API) equals what a preview
// started afresh on the edited content serves, once the related cases are
// computed. The bound is generous (a busy machine): bench-serve measures
// the time.
func TestEditServesAsFresh(t *testing.T) {
	dir := repotest.CopyDir(t, "content")
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: dir})
	file := filepath.Join(dir, "cases", "IL-0495.json")
	const title = "Served as a fresh preview serves it"
	editCase(t, file, func(c map[string]any) {
		tt := c["title"].(map[string]any)
		tt["en"] = title + ": " + tt["en"].(string)
		c["components"] = []any{"cdn", "health-probe"} // leaves ingress, joins cdn
		c["summary"].(map[string]any)["ko"] = "검색 색인에 새로 들어갈 낱말: 갈무리한다."
	})
	waitFor(t, r.url+"/en/cases/IL-0495/", 10*time.Second, "the edited title", func(status int, body string) bool {
		return status == 200 && strings.Contains(body, title)
	})
	deadline := time.Now().Add(2 * time.Minute)
	for r.srv.live.Current().lib.Stale() {
		if time.Now().After(deadline) {
			t.Fatalf("related cases still not computed after 2 minutes:\n%s", r.log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	edited := r.srv.live.Current()
	if edited.lib.Stages[0].Name != "edit" {
		t.Errorf("the save was not taken as an edit of one case: %v", edited.lib.Stages)
	}
	fresh := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: dir, Extras: build.StandardExtras()})
	paths := []string{
		"/en/cases/IL-0495/", "/ko/cases/IL-0495/", "/en/cases/IL-0495/index.md",
		"/en/components/ingress/", "/ko/components/ingress/", "/en/components/ingress/feed.xml",
		"/en/components/cdn/", "/ko/components/cdn/", "/en/components/cdn/feed.xml",
		"/en/", "/en/cases/", "/en/components/",
	}
	extras, err := edited.extraFiles()
	if err != nil {
		t.Fatal(err)
	}
	search := 0
	for f := range extras {
		paths = append(paths, "/"+f)
		if strings.Contains(f, "search") {
			search++
		}
	}
	if search == 0 {
		t.Fatal("no search index among the extra files")
	}
	for _, p := range paths {
		gs, got := raw(t, r.url+p)
		ws, want := raw(t, fresh.url+p)
		if gs != 200 || gs != ws || unversioned(got) != unversioned(want) {
			t.Errorf("%s: the edited preview serves %d, %d bytes; a fresh one %d, %d bytes", p, gs, len(got), ws, len(want))
		}
	}
	if _, body := get(t, r.url+"/en/components/cdn/"); !strings.Contains(body, "IL-0495") {
		t.Error("the topic the case joined does not list it")
	}
}

// unversioned drops the preview's reload script, which names the model's
// version.
func unversioned(page string) string { return reloadTag.ReplaceAllString(page, "") }

var reloadTag = regexp.MustCompile(`<script src="/_incidentlib/reload.js" data-version="\d+"></script>`)
