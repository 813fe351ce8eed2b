package markup

import (
	"strings"
	"testing"
)

// TestNesting: a page nested deeper than maxNesting renders at most that
// deep, the rest as text; pages nested less are untouched.
func TestNesting(t *testing.T) {
	for _, unit := range []string{"> ", "- ", "1. ", "> - "} {
		src := strings.Repeat(unit, 10000) + "end"
		_, body, _ := Prose(src)
		if n := strings.Count(body, "<blockquote>") + strings.Count(body, "<li>"); n > maxNesting {
			t.Errorf("%q × 10,000: %d levels, want at most %d", unit, n, maxNesting)
		}
		if !strings.Contains(body, "end") {
			t.Errorf("%q × 10,000: the text is lost", unit)
		}
		shallow := strings.Repeat(unit, maxNesting/strings.Count(unit, " ")) + "end"
		if capNesting(shallow) != shallow {
			t.Errorf("%q × %d changed", unit, maxNesting)
		}
	}
	for _, src := range []string{"", "a\n", "> quote\n> more\n\n- a\n  - b\n", "3.14 is pi\n", "-x\n"} {
		if got := capNesting(src); got != src {
			t.Errorf("capNesting(%q) = %q", src, got)
		}
	}
}

// BenchmarkHostileMarkdown renders texts of the largest size a case or a
// page may have, in the shapes that cost the parser most.
func BenchmarkHostileMarkdown(b *testing.B) {
	const size = 256 << 10
	for _, unit := range []string{"word ", "*a ", "[a](b) ", "![", "- a\n", "> "} {
		src := strings.Repeat(unit, size/len(unit))
		b.Run(strings.TrimSpace(unit), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				Paragraphs(src)
				Prose(src)
			}
		})
	}
}
