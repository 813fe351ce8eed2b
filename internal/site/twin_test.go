package site

import (
	"bytes"
	"incidentlib/internal/repotest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidentlib/internal/cases"
	"incidentlib/internal/urls"
)

// TestTwins checks the Markdown twin of every shipped case in both
// languages: RenderCase, which a build uses, writes the page byte for byte
// as Render does and the twin as Render does its own job (serve's way) and
// as CaseMarkdown does; CaseMarkdown with absolute links differs only in
// the related cases' links, which are their twins' URLs. Two twins are
// golden files.
func TestTwins(t *testing.T) {
	lib := loadContent(t, contentFS(t))
	s := newSite(t, lib, false)
	golden := map[string]bool{"IL-0495": true, "IL-0062": true}
	var page, twin, md bytes.Buffer
	linked, compared := 0, 0
	for _, c := range lib.Cases {
		for _, lang := range cases.Languages {
			j := Job{Kind: KindCase, Lang: lang, Path: urls.Case(lang, c.ID), Case: c}
			tj, ok := j.Twin()
			if !ok || tj.File() != urls.Markdown(lang, c.ID) || tj.Kind != KindTwin {
				t.Fatalf("%s: twin job %+v", j.File(), tj)
			}
			page.Reset()
			twin.Reset()
			if err := s.RenderCase(j, &page, &twin); err != nil {
				t.Fatal(err)
			}
			if want := render(t, s, j); page.String() != want {
				t.Errorf("%s: RenderCase wrote another page than Render:\n%s", j.File(), firstDiff(page.String(), want))
			}
			alone, typ, err := s.RenderBytes(tj)
			if err != nil || typ != "text/markdown" {
				t.Fatalf("%s: %q, %v", tj.File(), typ, err)
			}
			if !bytes.Equal(alone, twin.Bytes()) {
				t.Errorf("%s: the twin rendered alone differs from the one rendered with its page:\n%s", tj.File(), firstDiff(string(alone), twin.String()))
			}
			md.Reset()
			if err := s.CaseMarkdown(&md, c, lang, false); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(md.Bytes(), twin.Bytes()) {
				t.Errorf("%s: CaseMarkdown differs from the written twin", tj.File())
			}
			want := twin.String()
			for _, g := range s.model.Related(c.ID) {
				for _, l := range g.Links {
					want = strings.Replace(want, "](../"+l.ID+"/index.md)", "]("+s.URL(urls.Markdown(lang, l.ID))+")", 1)
					linked++
				}
			}
			md.Reset()
			if err := s.CaseMarkdown(&md, c, lang, true); err != nil {
				t.Fatal(err)
			}
			if md.String() != want {
				t.Errorf("%s: CaseMarkdown with absolute links:\n%s", tj.File(), firstDiff(md.String(), want))
			}
			if !golden[c.ID] {
				continue
			}
			compared++
			path := filepath.Join("testdata", "golden", "twin", filepath.FromSlash(tj.File()))
			if repotest.Update() {
				if err := os.WriteFile(path, twin.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if data, err := os.ReadFile(path); err != nil || !bytes.Equal(data, twin.Bytes()) {
				t.Errorf("%s differs from %s (%v; run go test -update after checking the change):\n%s", tj.File(), path, err, twin.String())
			}
		}
	}
	if linked == 0 || compared != 4 {
		t.Errorf("%d related links and %d golden twins compared", linked, compared)
	}
}
