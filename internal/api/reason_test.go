package api

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"testing"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/library"
	"incidentlib/internal/related"
	"incidentlib/internal/repotest"
	"incidentlib/internal/site"
)

// TestSimilarReasons: every reason in every similar.json is the sentence
// site.Reason writes for its link, in both languages, though most are
// written once for the two links of a pair (writer.related). The libraries
// must have links back whose reasons differ from the link's own (the shared
// words in another order), so that taking one for the other would fail.
func TestSimilarReasons(t *testing.T) {
	for _, fsys := range []struct {
		name string
		load func() *cases.Library
	}{
		{"content", func() *cases.Library { return loadLib(t, repotest.MapFS(t, "content")) }},
		{"generated", func() *cases.Library { return loadLib(t, gencases.MapFS(gencases.Options{N: generated(400), Seed: 5})) }},
	} {
		lib := fsys.load()
		s, err := site.New(library.Derive(lib), site.Options{Templates: incidentlib.Templates(), Static: incidentlib.Static()})
		if err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{}
		if err := Write(s.Library(), s.Strings(), s.BaseURL(), func(path string, data []byte) error { files[path] = bytes.Clone(data); return nil }); err != nil {
			t.Fatal(err)
		}
		reasons := map[[2]string]related.Link{}
		links, differ := 0, 0
		for _, c := range lib.Cases {
			var doc similarDoc
			if err := json.Unmarshal(files["api/v1/cases/"+c.ID+"/similar.json"], &doc); err != nil {
				t.Fatalf("%s: %v", c.ID, err)
			}
			var want []related.Link
			for _, g := range s.Library().Related(c.ID) {
				want = append(want, g.Links...)
			}
			if len(doc.Similar) != len(want) {
				t.Fatalf("%s: %d similar, want %d", c.ID, len(doc.Similar), len(want))
			}
			for i, l := range want {
				got := doc.Similar[i].Reason
				if en, ko := s.Library().Reason(s.Strings(), "en", l.Kind, l.Reason), s.Library().Reason(s.Strings(), "ko", l.Kind, l.Reason); got.En != en || got.Ko != ko {
					t.Errorf("%s → %s: reason %q / %q, want %q / %q", c.ID, l.ID, got.En, got.Ko, en, ko)
				}
				links++
				reasons[[2]string{c.ID, l.ID}] = l
				if back, ok := reasons[[2]string{l.ID, c.ID}]; ok && s.Library().Reason(s.Strings(), "en", back.Kind, back.Reason) != s.Library().Reason(s.Strings(), "en", l.Kind, l.Reason) {
					differ++
				}
			}
		}
		t.Logf("%s: %d links, %d whose link back has another reason", fsys.name, links, differ)
		if links == 0 || fsys.name == "generated" && differ == 0 {
			t.Errorf("%s: %d links, %d with a different reason back: the test proves nothing", fsys.name, links, differ)
		}
	}
}

func loadLib(t *testing.T, fsys fs.FS) *cases.Library {
	t.Helper()
	lib, list := cases.Load(fsys)
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	return lib
}
