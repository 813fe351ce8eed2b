package casemd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidentlib/internal/cases"
	"incidentlib/internal/library"
	"incidentlib/internal/repotest"
)

// TestGolden writes IL-0495, a case with every section, and IL-0338 with
// its related cases, in both languages, with relative and absolute links,
// and compares them with testdata/golden (go test -update rewrites them;
// the site's twins and the MCP answers are this output).
func TestGolden(t *testing.T) {
	fsys, err := library.Content(repotest.Dir(t, "content"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := library.New(context.Background(), fsys, library.Options{})
	if err != nil || !l.Ready() {
		t.Fatalf("the shipped library: %v %v", err, l.Diags)
	}
	w := New(l.Lib, cases.Catalogue, "https://example.org/lib")
	for _, id := range []string{"IL-0495", "IL-0338"} {
		c := l.Lib.ByID[id]
		for _, lang := range cases.Languages {
			var related []Related
			for _, g := range l.Related(id) {
				for _, k := range g.Links {
					related = append(related, Related{Case: l.Lib.ByID[k.ID], Why: l.Reason(cases.Catalogue, lang, k.Kind, k.Reason)})
				}
			}
			for _, abs := range []bool{false, true} {
				var b bytes.Buffer
				w.Case(&b, c, lang, related, abs)
				name := id + "-" + lang + map[bool]string{false: ".md", true: "-absolute.md"}[abs]
				golden := filepath.Join("testdata", "golden", name)
				if repotest.Update() {
					if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(b.Bytes(), want) {
					t.Errorf("%s differs from %s:\n%s", name, golden, b.String())
				}
				if abs != strings.Contains(b.String(), "](https://example.org/lib/"+lang+"/cases/") && len(related) > 0 {
					t.Errorf("%s: related links are not %s", name, map[bool]string{false: "relative", true: "absolute"}[abs])
				}
			}
		}
	}
}

// TestVersionWords holds the words for OSV-style ranges in both
// languages; a range from the first version says "every version before".
func TestVersionWords(t *testing.T) {
	for _, tc := range []struct {
		a      cases.Affected
		en, ko string
	}{
		{cases.Affected{Introduced: "0", Fixed: "1.11.5"}, "every version before 1.11.5, fixed in 1.11.5", "1.11.5 이전의 모든 버전, 1.11.5에서 수정됨"},
		{cases.Affected{Introduced: "1.12.0", Fixed: "1.12.1"}, "from 1.12.0, fixed in 1.12.1", "1.12.0부터, 1.12.1에서 수정됨"},
		{cases.Affected{Introduced: "1.0.0-rc93", LastAffected: "1.1.12"}, "from 1.0.0-rc93, up to 1.1.12", "1.0.0-rc93부터, 1.1.12까지"},
		{cases.Affected{Introduced: "0"}, "every version", "모든 버전"},
		{cases.Affected{Versions: []string{"237-3ubuntu10.54"}}, "versions 237-3ubuntu10.54", "버전 237-3ubuntu10.54"},
	} {
		for lang, want := range map[string]string{"en": tc.en, "ko": tc.ko} {
			got := VersionWords(tc.a, func(key string) string { return cases.Catalogue[key][lang] })
			if got != want {
				t.Errorf("%+v in %s: %q, want %q", tc.a, lang, got, want)
			}
		}
	}
}
