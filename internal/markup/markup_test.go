package markup

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"incidentlib/internal/repotest"
)

func TestParagraphs(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain words", "<p>plain words</p>"},
		{"one\n\ntwo", "<p>one</p><p>two</p>"},
		{"14:20 UTC에 *느려졌다*", "<p>14:20 UTC에 <em>느려졌다</em></p>"},
		{"a `kubectl drain` b", "<p>a <code>kubectl drain</code> b</p>"},
		{"<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"},
		// Lines that look like blocks stay text: nothing typed is lost.
		{"# not a heading\n- not a list", "<p># not a heading\n- not a list</p>"},
		{"[a]: https://x.example", "<p>[a]: https://x.example</p>"},
		{"[x](https://ok.example/)", `<p><a href="https://ok.example/">x</a></p>`},
	}
	for _, tt := range tests {
		if got := Paragraphs(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := Paragraphs("[x](javascript:alert(1))"); strings.Contains(got, "javascript") {
		t.Errorf("dangerous link kept: %s", got)
	}
}

// TestPlainMatchesGoldmark checks the fast path for text without Markdown
// against what goldmark itself makes of the same text, compacted.
func TestPlainMatchesGoldmark(t *testing.T) {
	for _, in := range []string{"a b c", "one\ntwo\n\nthree", "  spaced  \n\n\n\nmore", "한국어 문단\n\n두 번째",
		`It's "quoted": a ~ b | c; 50% #1 {x} (y) $z = w + v - u / t ? s , r ^ q @ p`, "tabs\tand\ttrailing \nlines ", "한국어 \"인용\" '작은' 따옴표: 끝"} {
		var b strings.Builder
		if err := caseMD.Convert([]byte(in), &b); err != nil {
			t.Fatal(err)
		}
		if got := plainParagraphs(in); got != compactString([]byte(b.String())) {
			t.Errorf("plainParagraphs(%q) = %q, goldmark says %q", in, got, b.String())
		}
	}
}

// TestPlainParagraphsRandom checks the one-pass test and fast path against
// their first form (splitting, then trimming each line), which
// TestPlainMatchesGoldmark holds to goldmark, on texts drawn at random from
// the pieces that matter to them: line breaks, blank lines, spaces and tabs
// at the ends of lines, Unicode spaces, quotes, Hangul, and the bytes that
// send a text to the parser.
func TestPlainParagraphsRandom(t *testing.T) {
	pieces := []string{"a", "word", "한국어", " ", "  ", "\t", "\n", "\n\n", "\n\n\n", "\u00a0", "\u3000", `"`, "'", "1.2", "-", "#", "`", "*", "_", "\r", "&", "<", "\\", "!", "[", "]", ">"}
	r := rand.New(rand.NewPCG(1, 2))
	plain := 0
	for range 50000 {
		in := repotest.Pieces(r, pieces, 1+r.IntN(12))
		want := !strings.ContainsAny(in, special) && !strings.Contains(in, "\r") && !strings.Contains(in, "  \n")
		if got := isPlain(in); got != want {
			t.Fatalf("isPlain(%q) = %v, want %v", in, got, want)
		}
		if !want {
			continue
		}
		plain++
		if got, want := plainParagraphs(in), splitParagraphs(in); got != want {
			t.Fatalf("plainParagraphs(%q) = %q, want %q", in, got, want)
		}
	}
	if plain < 5000 {
		t.Errorf("only %d texts took the fast path", plain)
	}
}

// TestCodeParagraphsMatchGoldmark holds the path for texts whose only
// Markdown is code spans to what goldmark makes of the same texts, on texts
// drawn at random from the pieces that matter to it: backticks alone and
// doubled, code with and without spaces at its ends, spaces, tabs and
// Unicode spaces at the ends of lines, blank and white lines, quotes.
func TestCodeParagraphsMatchGoldmark(t *testing.T) {
	pieces := []string{"a", "word", "한국어", " ", "  ", "\t", "\n", "\n\n", "\n \n", "\u00a0", `"`, "'", "`", "``", "`x`", "`a b`", "` x`", "`x `", "`kubectl drain`", "`\"q\"`", "-", "#", "*", "\r", "<"}
	r := rand.New(rand.NewPCG(5, 6))
	fast := 0
	for range 200000 {
		in := repotest.Pieces(r, pieces, 1+r.IntN(14))
		got, ok := codeParagraphs(in)
		if !ok {
			continue
		}
		fast++
		var md strings.Builder
		if err := caseMD.Convert([]byte(in), &md); err != nil {
			t.Fatal(err)
		}
		if want := compactString([]byte(md.String())); got != want {
			t.Fatalf("codeParagraphs(%q) = %q, goldmark says %q", in, got, want)
		}
	}
	if fast < 6000 {
		t.Errorf("only %d texts took the path", fast)
	}
}

// splitParagraphs is the first form of plainParagraphs.
func splitParagraphs(src string) string {
	var b strings.Builder
	for _, para := range strings.Split(src, "\n\n") {
		lines := strings.Split(strings.TrimSpace(para), "\n")
		first := true
		for _, l := range lines {
			l = strings.TrimSpace(l)
			if l == "" {
				continue
			}
			if first {
				b.WriteString("<p>")
				first = false
			} else {
				b.WriteByte('\n')
			}
			b.WriteString(strings.ReplaceAll(l, `"`, "&quot;"))
		}
		if !first {
			b.WriteString("</p>")
		}
	}
	return b.String()
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

func TestCompact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"<ul>\n<li>a</li>\n  <li>b</li>\n</ul>\n<p>x</p>", "<ul><li>a</li><li>b</li></ul><p>x</p>"},
		// Next to inline elements a line break may be the space between words.
		{"<a href=x>one</a>\n<a href=y>two</a>", "<a href=x>one</a>\n<a href=y>two</a>"},
		{"<p>one\n   two</p>", "<p>one\ntwo</p>"},
		{"<p>keep  these  spaces</p>", "<p>keep  these  spaces</p>"},
		{"<li>\n<span>x</span>\n</li>", "<li><span>x</span></li>"},
		{"<pre>\n  code\n\n  more\n</pre>\n<p>", "<pre>\n  code\n\n  more\n</pre><p>"},
		{"<textarea>\n a\n</textarea>", "<textarea>\n a\n</textarea>"},
		{"<div\n  class=x>", "<div\nclass=x>"},
	}
	for _, tt := range tests {
		raw := ""
		if got := string(Compact([]byte(tt.in), &raw)); got != tt.want {
			t.Errorf("Compact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// A raw element open at the end of one piece stays raw in the next.
	raw := ""
	Compact([]byte("<pre>"), &raw)
	if got := string(Compact([]byte("\n x\n\n</pre>\n<p>"), &raw)); got != "\n x\n\n</pre><p>" {
		t.Errorf("second piece: %q", got)
	}
}

func TestPlain(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"plain words\nover two lines", "plain words over two lines"},
		{"set `hostNetwork: true` on *every* [pod](https://example.com/x)", "set hostNetwork: true on every pod"},
		{"<script>x</script> & more", "<script>x</script> & more"},
		{"", ""},
	} {
		if got := Plain(tt.src); got != tt.want {
			t.Errorf("Plain(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestJoinFields checks joinFields, and the test that lets text through as
// it is, against strings.Fields on texts drawn at random from the spaces
// it knows, ASCII and not, words and broken UTF-8.
func TestJoinFields(t *testing.T) {
	pieces := []string{" ", "  ", "\n", "\t", "\r\n", "\v", "\f", "\u00a0", "\u0085", "\u3000", "\u2028", "\u200b", "a", "bc", "한국", "\xff", "\xe3\x80", "."}
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		in := repotest.Pieces(r, pieces, r.IntN(8))
		want := strings.Join(strings.Fields(in), " ")
		if got := joinFields(in); got != want {
			t.Fatalf("joinFields(%q) = %q, want %q", in, got, want)
		}
		if singleSpaced(in) != (in == want) {
			t.Fatalf("singleSpaced(%q) = %v, but strings.Fields makes %q", in, singleSpaced(in), want)
		}
	}
}

// TestMarkdownLinePlain holds MarkdownLine's fast path for plain values
// to what it writes of any value, on every way a value can stop being
// plain and on every pair of a few pieces.
func TestMarkdownLinePlain(t *testing.T) {
	pieces := []string{"", "a", "Title", "한국어 제목", " ", "  ", "\t", "\n", "\r", "\v", "\f", "\u00a0", "\u0085", "\u3000", "\u2028", "\u200b",
		"<", "[", "]", "\\", "*", "#", "# ", "- ", "1. ", ">", "`", "é", "\xff", "\xc3", "x y", "=", "---", "+ ", "|"}
	plain := 0
	for _, a := range pieces {
		for _, b := range pieces {
			for _, s := range []string{a + b, a + "word" + b, b + " " + a} {
				if got, want := MarkdownLine(s), markdownLine(s); got != want {
					t.Errorf("MarkdownLine(%q) = %q, want %q", s, got, want)
				}
				if plainLine(s) {
					plain++
				}
			}
		}
	}
	if plain == 0 {
		t.Error("no value took the fast path")
	}
}

// writeInlineByByte is writeInline as it was first written, a byte at a
// time: the reference TestWriteInline holds the faster one to.
func writeInlineByByte(b *strings.Builder, line string) {
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line):
			b.WriteByte(c)
			b.WriteByte(line[i+1])
			i++
			continue
		case c == '<' && !safeAutolink(line[i:]):
			b.WriteByte('\\')
		case c == '(' && i > 0 && line[i-1] == ']' && !safeDestination(line[i+1:]):
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
}

// TestWriteInline compares writeInline with writeInlineByByte on lines of
// the pieces that matter to it, and checks mayBeSpace on every white space
// character beyond ASCII.
func TestWriteInline(t *testing.T) {
	pieces := []string{"a", "text ", "한국어", "\\", "\\\\", "<", ">", "<https://x.example/>", "<http://a b>", "<javascript:alert(1)>", "[x]", "](", "(", ")",
		"](javascript:x)", "](https://x)", "](mailto:a@b)", "](/path)", "](#frag)", "](&#106;)", "]( java", "*", "`"}
	r := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		line := repotest.Pieces(r, pieces, r.IntN(10))
		var got, want strings.Builder
		writeInline(&got, line)
		writeInlineByByte(&want, line)
		if got.String() != want.String() {
			t.Fatalf("writeInline(%q) = %q, want %q", line, got.String(), want.String())
		}
	}
	for c := rune(0x80); c <= unicode.MaxRune; c++ {
		if unicode.IsSpace(c) && !mayBeSpace(string(c)[0]) {
			t.Errorf("%U is white space, and mayBeSpace(%#x) says it cannot be", c, string(c)[0])
		}
	}
}
