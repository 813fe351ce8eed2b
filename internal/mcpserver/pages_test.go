package mcpserver

import (
	"bytes"
	"context"
	"testing"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/library"
	"incidentlib/internal/repotest"
	"incidentlib/internal/site"
)

// TestPagesAreTheSite's: the Markdown of every case in both languages,
// with links absolute as the answers give them and relative as the twins
// do, is the site's own (one writer, casemd), as are the strings and the
// URLs, though the server parses no template to make them.
func TestPagesAreTheSite(t *testing.T) {
	fsys, err := library.Content(repotest.Dir(t, "content"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := library.New(context.Background(), fsys, library.Options{})
	if err != nil || !l.Ready() {
		t.Fatalf("the shipped library: %v %v", err, l.Diags)
	}
	s, err := site.New(l, site.Options{Templates: incidentlib.Templates(), Static: incidentlib.Static()})
	if err != nil {
		t.Fatal(err)
	}
	p := newPages(l)
	var got, want bytes.Buffer
	for _, c := range l.Lib.Cases {
		for _, lang := range cases.Languages {
			for _, abs := range []bool{true, false} {
				got.Reset()
				want.Reset()
				if err := p.CaseMarkdown(&got, c, lang, abs); err != nil {
					t.Fatal(err)
				}
				if err := s.CaseMarkdown(&want, c, lang, abs); err != nil {
					t.Fatal(err)
				}
				if got.Len() < 500 || !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Fatalf("%s %s (absolute %v): the server's Markdown (%d bytes) is not the site's (%d bytes)", c.ID, lang, abs, got.Len(), want.Len())
				}
			}
		}
	}
	for _, lang := range cases.Languages {
		if a, b := p.Strings().Get(lang, "mcp.did_you_mean"), s.Strings().Get(lang, "mcp.did_you_mean"); a == "" || a != b {
			t.Errorf("%s: the server's strings say %q, the site's %q", lang, a, b)
		}
	}
	if a, b := p.URL("en/"), s.URL("en/"); a != b {
		t.Errorf("URL = %q, the site's %q", a, b)
	}
}
