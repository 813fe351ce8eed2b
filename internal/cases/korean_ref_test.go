package cases

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"incidentlib/internal/gencases"
	"incidentlib/internal/jsonpos"
	"incidentlib/internal/repotest"
)

// findParticleGapsByRun is FindParticleGaps as it was first written: every
// run of spaces is judged by gapAt. The fast loop must find exactly what it
// finds.
func findParticleGapsByRun(s string) []ParticleGap {
	var out []ParticleGap
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], ' ')
		if j < 0 {
			break
		}
		off := i + j
		end := off
		for end < len(s) && s[end] == ' ' {
			end++
		}
		i = end
		if g, ok := gapAt(s, off, end); ok {
			out = append(out, g)
		}
	}
	return out
}

// rawStringByByte is rawString as it was first written, a byte at a time.
func rawStringByByte(src string, off int) string {
	if off >= len(src) || src[off] != '"' {
		return ""
	}
	for i := off + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '"':
			return src[off+1 : i]
		}
	}
	return ""
}

// TestParticleGapsMatchReference holds the fast particle check to the
// plain one on the strings of generated case files, on the content folder
// and on random strings made of the pieces that matter: spaces, particles,
// Hangul words, Latin words, digits, closing marks, escapes and bytes that
// are not UTF-8.
func TestParticleGapsMatchReference(t *testing.T) {
	var texts []string
	for name, f := range gencases.MapFS(gencases.Options{N: 200, Seed: 7}) {
		if strings.HasSuffix(name, ".json") {
			texts = append(texts, string(f.Data))
		}
	}
	pieces := []string{" ", "  ", "\n", "\t", "의", "가", "이", "다", "들이", "에서", "파드", "가운데", "입니다", "한테", "했다",
		"API", "a", "Z", "9", ")", "]", "\"", "'", "`", "%", "’", "”", "»", "°", "é", "Ж", "(1)", "1)",
		".", ",", "\\", "\\\"", "\xed", "\xea\xb0", "\xff", "**", "가a", "ㄱ", "\u3000"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		texts = append(texts, repotest.Pieces(r, pieces, r.IntN(12)))
	}
	for _, s := range texts {
		if got, want := FindParticleGaps(s), findParticleGapsByRun(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("FindParticleGaps(%q) = %v, want %v", s, got, want)
		}
		for off := range len(s) + 1 {
			prev, _ := utf8.DecodeLastRuneInString(s[:off])
			if got, want := hangulBefore(s, off), isHangulSyllable(prev); got != want {
				t.Fatalf("hangulBefore(%q, %d) = %v, want %v", s, off, got, want)
			}
		}
		q := `"` + s + `"`
		for off := range min(len(q), 64) {
			if got, want := rawString(q, off), rawStringByByte(q, off); got != want {
				t.Fatalf("rawString(%q, %d) = %q, want %q", q, off, got, want)
			}
		}
	}
	// The strings of a parsed file, where rawString reads each literal.
	n, bodies := 0, 0
	for _, src := range texts[:200] {
		doc := jsonpos.Parse(src)
		var walk func(v *jsonpos.Value)
		walk = func(v *jsonpos.Value) {
			for _, m := range v.Members {
				walk(m.Value)
			}
			for _, it := range v.Items {
				walk(it)
			}
			if v.Kind == jsonpos.String {
				n++
				want := rawStringByByte(src, v.Off)
				if got := rawString(src, v.Off); got != want || !utf8.ValidString(got) {
					t.Fatalf("rawString at %d = %q, want %q", v.Off, got, want)
				}
				// The string itself stands for its literal when
				// literalBody says so.
				if literalBody(src, v) {
					bodies++
					if v.Str != want {
						t.Fatalf("literalBody at %d: %q is not the literal %q", v.Off, v.Str, want)
					}
				}
			}
		}
		walk(doc.Root)
	}
	if n < 1000 || bodies < n/2 || bodies == n {
		t.Fatalf("%d strings checked, %d of them as their literal's body: both kinds must be many", n, bodies)
	}
}
