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
