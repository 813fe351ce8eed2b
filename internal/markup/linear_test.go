package markup

import (
	"strings"
	"testing"
	"time"

	"incidentlib/internal/repotest"
)

// hostileShapes are the texts that cost the parser most per byte: inline
// links, images and autolinks left open, and the openers of other inline
// constructs, each repeated to fill a text.
var hostileShapes = []string{"[a](", "[a]\n", "[a]x\n", "[\n", "[](", "![a](", "*[a](", "[a](<", "[a](b \"", "[a](b (", "[a](\n", "[a](b\n", "[a][", "[", "![", "*a", "_a", "<a", "` "}

// renderCost is the CPU time of rendering src as case text and as a prose
// page.
func renderCost(src string) time.Duration {
	start := repotest.CPUTime()
	Paragraphs(src)
	Plain(src)
	Prose(src)
	return repotest.CPUTime() - start
}

// TestLinearTime: 256 kB of any hostile shape renders at a cost of the
// same order as 256 kB of ordinary links (CPU time, which a busy machine
// disturbs less than the clock; before the cap, "[a](" cost a thousand
// times more).
func TestLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a few megabytes")
	}
	const size = 256 << 10
	fill := func(unit string) string { return strings.Repeat(unit, size/len(unit)) }
	base := renderCost(fill("[a](b) word "))
	for _, unit := range hostileShapes {
		if cost := renderCost(fill(unit)); cost > 20*base+time.Second {
			t.Errorf("%q × %d: %v of CPU, ordinary links of the same size %v", unit, size/len(unit), cost, base)
		}
	}
}

// TestCapLinks: a link that closes is untouched, however it is written;
// the opener of one that does not close within maxLinkTail is escaped and
// renders as the same text.
func TestCapLinks(t *testing.T) {
	for _, src := range []string{
		"", "plain", "[a](b)", "[a]( b )", "[a](<b c>)", `[a](b "t")`, "[a](b 't')", "[a](b (t))",
		"[a](https://en.wikipedia.org/wiki/A_(b))", "[a](\nb\n)", `[a](b\)c)`, "![i](x.png) and [l](y)",
	} {
		if got := capLinks(src); got != src {
			t.Errorf("capLinks(%q) = %q, want it untouched", src, got)
		}
	}
	open := "see [a](" + strings.Repeat("x", maxLinkTail) + " end"
	if got := capLinks(open); got != strings.Replace(open, "](", `]\(`, 1) {
		t.Errorf("an unclosed link: %q", got[:20])
	}
	if got, want := Paragraphs(open), "<p>see [a]("+strings.Repeat("x", maxLinkTail)+" end</p>"; got != want {
		t.Errorf("an unclosed link renders as %q…, want its text", got[:20])
	}
}

// FuzzRender: no text, repeated to 32 kB, takes the renderer more than
// twenty times as long as ordinary links of the same size (and never more
// than a second beyond that), and none yields a link to a dangerous scheme
// or a tag from the text.
func FuzzRender(f *testing.F) {
	for _, s := range hostileShapes {
		f.Add(s)
	}
	f.Add("[a](javascript:alert(1)) <script>x</script>")
	f.Fuzz(func(t *testing.T, unit string) {
		if unit == "" {
			return
		}
		src := strings.Repeat(unit, max(1, (32<<10)/len(unit)))
		// The quick loop (-short) times nothing: the full run compares
		// the costs here, and TestLinearTime at 256 kB.
		if !testing.Short() {
			base := renderCost(strings.Repeat("[a](b) word ", len(src)/12+1))
			if cost := renderCost(src); cost > 20*base+time.Second {
				t.Errorf("%q × %d: %v of CPU, ordinary links %v", unit, (32<<10)/len(unit), cost, base)
			}
		}
		for _, html := range []string{Paragraphs(src), func() string { _, b, _ := Prose(src); return b }()} {
			if strings.Contains(html, "<script") || strings.Contains(strings.ToLower(html), `href="javascript:`) {
				t.Errorf("%q renders live HTML: %.200s", unit, html)
			}
		}
	})
}

// TestCapLines: a run of lines longer than maxParagraphLines is split into
// paragraphs of that many lines, with every line kept; shorter runs and
// fenced code are untouched.
func TestCapLines(t *testing.T) {
	long := strings.Repeat("[a] b\n", 3*maxParagraphLines)
	if got := strings.Count(Paragraphs(long), "<p>"); got != 3 {
		t.Errorf("%d lines: %d paragraphs, want 3", 3*maxParagraphLines, got)
	}
	if got := strings.Count(capLines(long), "[a] b"); got != 3*maxParagraphLines {
		t.Errorf("lines lost: %d left", got)
	}
	for _, src := range []string{strings.Repeat("a\n", maxParagraphLines), "```\n" + strings.Repeat("x]\n", 3*maxParagraphLines) + "```\n", "a\n\nb\n"} {
		if capLines(src) != src {
			t.Errorf("capLines changed %.20q", src)
		}
	}
}
