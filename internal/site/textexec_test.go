package site

import (
	"bytes"
	"testing"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/htmlexec"
)

// TestTextTemplatesCompiled renders llms.txt of the shipped library and
// of the hostile corpus through text/template and through htmlexec's
// compiled copy: the bytes must be the same, and the compiled copy must
// exist, or the test would compare text/template with itself. (The
// Markdown twins are Go, internal/casemd.)
func TestTextTemplatesCompiled(t *testing.T) {
	slow, err := loadTheme(incidentlib.Templates(), incidentlib.Static(), themeConfig{compile: htmlexec.Compile})
	if err != nil {
		t.Fatal(err)
	}
	fast, err := LoadTheme(incidentlib.Templates(), incidentlib.Static())
	if err != nil {
		t.Fatal(err)
	}
	if fast.llms.fast == nil {
		t.Fatal("llms.txt did not compile")
	}
	for _, lib := range []*cases.Library{loadContent(t, contentFS(t)), loadContent(t, hostileContent(t))} {
		a, b := twoSites(t, lib, slow, fast)
		var want, got bytes.Buffer
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
