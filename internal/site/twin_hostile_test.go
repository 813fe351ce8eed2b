package site

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/renderer/html"
)

// permissive renders Markdown as the most trusting reader does: raw HTML
// kept, every link live.
var permissive = goldmark.New(goldmark.WithRendererOptions(html.WithUnsafe()))

// TestTextOutputsDefused (#39 row 17): the Markdown twins (which MCP
// answers carry too) and llms.txt, read by a reader that keeps raw HTML
// and every link, hold no markup and no live link from case text, and no
// heading, list item or link that a line break in a title, an organisation
// or a text would start.
func TestTextOutputsDefused(t *testing.T) {
	lib := loadContent(t, hostileContent(t))
	inject := "\n# Injected heading\n- injected item\n[injected](javascript:alert(20))\n<script>alert(21)</script>\n"
	for _, c := range lib.Cases[:3] {
		c.Title.En += inject
		c.Org += inject
		c.Summary.En += inject
		c.Sources[0].URL = "https://e.org/>[s](javascript:alert(22))<"
	}
	s := newSite(t, lib, false)
	check := func(what string, md []byte) {
		t.Helper()
		var out bytes.Buffer
		if err := permissive.Convert(md, &out); err != nil {
			t.Fatal(err)
		}
		if err := defused(out.Bytes()); err != nil {
			t.Errorf("%s: %v", what, err)
		}
		for _, bad := range []string{">Injected heading</h", "<li>injected item", `href="javascript:`} {
			if strings.Contains(out.String(), bad) {
				t.Errorf("%s: case text became %q", what, bad)
			}
		}
	}
	for _, c := range lib.Cases[:3] {
		for _, lang := range []string{"en", "ko"} {
			var b bytes.Buffer
			if err := s.CaseMarkdown(&b, c, lang, true); err != nil {
				t.Fatal(err)
			}
			check(c.ID+" "+lang, b.Bytes())
		}
	}
	var b bytes.Buffer
	if err := s.LLMs(&b); err != nil {
		t.Fatal(err)
	}
	check("llms.txt", b.Bytes())
}
