package site

import (
	"bytes"
	"testing"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/htmlexec"
	"incidentlib/internal/urls"
)

// TestTextTemplatesCompiled renders the Markdown twin of every case in both
// languages, with related links relative and absolute, and llms.txt, of the
// shipped library and of the hostile corpus, through text/template and
// through htmlexec's compiled copy: the bytes must be the same, and the
// compiled copy must exist, or the test would compare text/template with
// itself.
func TestTextTemplatesCompiled(t *testing.T) {
	slow, err := loadTheme(incidentlib.Templates(), incidentlib.Static(), themeConfig{compile: htmlexec.Compile})
	if err != nil {
		t.Fatal(err)
	}
	fast, err := LoadTheme(incidentlib.Templates(), incidentlib.Static())
	if err != nil {
		t.Fatal(err)
	}
	if fast.md.fast == nil || fast.llms.fast == nil {
		t.Fatalf("case.md or llms.txt did not compile (md %v, llms %v)", fast.md.fast != nil, fast.llms.fast != nil)
	}
	for _, lib := range []*cases.Library{loadContent(t, contentFS(t)), loadContent(t, hostileContent(t))} {
		a, b := twoSites(t, lib, slow, fast)
		var want, got bytes.Buffer
		for _, c := range lib.Cases {
			for _, lang := range cases.Languages {
				for _, abs := range []bool{false, true} {
					want.Reset()
					got.Reset()
					if err := a.CaseMarkdown(&want, c, lang, abs); err != nil {
						t.Fatalf("%s %s through text/template: %v", c.ID, lang, err)
					}
					// The compiled template itself, so that a fallback to
					// text/template cannot pass for it.
					v, err := views{b}.caseView(Job{Kind: KindCase, Lang: lang, Path: urls.Case(lang, c.ID), Case: c}, false)
					if err != nil {
						t.Fatal(err)
					}
					if err := fast.md.fast.Execute(&got, twins{b}.markdownView(v, abs)); err != nil {
						t.Fatalf("%s %s compiled: %v", c.ID, lang, err)
					}
					if !bytes.Equal(got.Bytes(), want.Bytes()) {
						t.Errorf("%s %s (absolute %v) compiled differs:\n%s", c.ID, lang, abs, firstDiff(got.String(), want.String()))
					}
				}
			}
		}
		want.Reset()
		got.Reset()
		if err := a.LLMs(&want); err != nil {
			t.Fatal(err)
		}
		if err := fast.llms.fast.Execute(&got, b.llmsView()); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("llms.txt compiled differs:\n%s", firstDiff(got.String(), want.String()))
		}
	}
}
