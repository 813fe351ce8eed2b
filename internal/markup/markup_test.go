package markup

import (
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain words", "<p>plain words</p>\n"},
		{"one\n\ntwo", "<p>one</p>\n<p>two</p>\n"},
		{"14:20 UTC에 *느려졌다*", "<p>14:20 UTC에 <em>느려졌다</em></p>\n"},
		{"a `kubectl drain` b", "<p>a <code>kubectl drain</code> b</p>\n"},
		{"<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n"},
		// Lines that look like blocks stay text: nothing typed is lost.
		{"# not a heading\n- not a list", "<p># not a heading\n- not a list</p>\n"},
		{"[a]: https://x.example", "<p>[a]: https://x.example</p>\n"},
		{"[x](https://ok.example/)", `<p><a href="https://ok.example/">x</a></p>` + "\n"},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := Text("[x](javascript:alert(1))"); strings.Contains(got, "javascript") {
		t.Errorf("dangerous link kept: %s", got)
	}
}

// TestPlainMatchesGoldmark checks the fast path for text without Markdown
// against what goldmark itself makes of the same text.
func TestPlainMatchesGoldmark(t *testing.T) {
	for _, in := range []string{"a b c", "one\ntwo\n\nthree", "  spaced  \n\n\n\nmore", "한국어 문단\n\n두 번째"} {
		var b strings.Builder
		if err := caseMD.Convert([]byte(in), &b); err != nil {
			t.Fatal(err)
		}
		if got := plainParagraphs(in); got != b.String() {
			t.Errorf("plainParagraphs(%q) = %q, goldmark says %q", in, got, b.String())
		}
	}
}

func TestProse(t *testing.T) {
	title, body, toc := Prose("# 소개\n\n글 <b>x</b>\n\n## 사례 읽는 법\n\n본문\n\n## 사례 읽는 법\n\n## API & MCP\n")
	if title != "소개" {
		t.Errorf("title %q", title)
	}
	if strings.Contains(body, "<h1") || strings.Contains(body, "<b>") {
		t.Errorf("body %s", body)
	}
	want := []string{"사례-읽는-법", "사례-읽는-법-1", "api-mcp"}
	if len(toc) != len(want) {
		t.Fatalf("toc %+v", toc)
	}
	for i, h := range toc {
		if h.ID != want[i] || !strings.Contains(body, `id="`+want[i]+`"`) {
			t.Errorf("heading %d: id %q, want %q", i, h.ID, want[i])
		}
	}
}
