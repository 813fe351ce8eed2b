package tokenize

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/text/unicode/norm"
)

func TestNFCStable(t *testing.T) {
	stable := func(s string) bool {
		for _, r := range s {
			if !nfcStable(r) {
				return false
			}
		}
		return true
	}
	for _, s := range []string{"load balancer", "로드 밸런서가", "café", "2024년 8월"} {
		if !stable(s) || norm.NFC.String(s) != s {
			t.Errorf("%q: stable=%v, NFC changes it: %v", s, stable(s), norm.NFC.String(s) != s)
		}
	}
	// Decomposed text, a trailing jamo after a syllable and a singleton
	// decomposition all need the real normalizer.
	for _, s := range []string{"cafe\u0301", "가\u11a8", "\u2000", "\u1100\u1161"} {
		if stable(s) {
			t.Errorf("%q taken as NFC", s)
		}
	}
}

// TestLower checks that text which needs the normalizer gets it, wherever
// the character that needs it is, and that the buffer's reuse leaves
// nothing of an earlier text behind.
func TestLower(t *testing.T) {
	var tk Tokenizer
	for _, c := range []struct{ in, want string }{
		{"Load BALANCER", "load balancer"},
		{"CAFE\u0301 Über", "café über"},
		{"로드 밸런서가 HubSpot", "로드 밸런서가 hubspot"},
		{"\u1100\u1161 X", "가 x"},
		{"ok", "ok"},
	} {
		if got := string(tk.lower(c.in)); got != c.want {
			t.Errorf("lower(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestWords(t *testing.T) {
	got := wordsOf("The ingress pods were cordoned; 파드가 cordon 됐다")
	want := []indexWord{
		{"", "the", false}, {"ingress", "ingress", false}, {"pod", "pods", false}, {"", "were", false},
		{"cordon", "cordoned", false}, {"파드", "파드가", true}, {"cordon", "cordon", false}, {"", "됐다", true},
	}
	if len(got) != len(want) {
		t.Fatalf("Words = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("word %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestIsStop holds the stop-word table to the list it is made from.
func TestIsStop(t *testing.T) {
	for w := range englishStop {
		if !isStop([]rune(w)) {
			t.Errorf("%q is a stop word, isStop says no", w)
		}
	}
	for _, w := range []string{"", "x", "ab", "thee", "whic", "whichever", "load", "etcd", "théir", "로드"} {
		if isStop([]rune(w)) != englishStop[w] {
			t.Errorf("isStop(%q) = %v", w, !englishStop[w])
		}
	}
}

// TestEachWordBytes compares the UTF-8 words EachWord hands out, term
// sharing the raw form's bytes or not, with the words analyze copies out,
// on every vector and on words whose term is no prefix of the word
// ("incidents" → "incident" is one, "replicas" → "replica" too, "retries"
// → "retry" is not) or is empty (stop words, bare particles).
func TestEachWordBytes(t *testing.T) {
	texts := []string{
		"Retries failed; the replicas' caches were purged at 14:20 UTC에, 3월에 ＨＡＰｒｏｘｙ의 k8s 502s",
		"Cafe\u0301 naïve ÉCOLE 로드 밸런서를 다시 시작했다. 평가 은 팀이 메모리가 바닥나는",
		"", " ", "a", "되고", "studies copied", "v1.12.1 10.0.3.17",
	}
	texts = append(texts, vectorInputs(t)...)
	for _, text := range texts {
		var want []indexWord
		for _, w := range Analyze(text) {
			want = append(want, indexWord{Term: string(w.term), Raw: string(w.raw), Hangul: w.hangul})
		}
		var got []indexWord
		EachWord(text, func(term, raw []byte, hangul bool) {
			got = append(got, indexWord{Term: string(term), Raw: string(raw), Hangul: hangul})
		})
		if !slices.Equal(got, want) {
			t.Errorf("EachWord(%q):\n got %+v\nwant %+v", text, got, want)
		}
	}
}

// TestLowerDecodes compares lower, which decodes ASCII and Hangul
// syllables itself, with the plain path (the text in NFC, decoded by
// range and folded a character at a time) on every Hangul syllable and on
// the byte sequences around them: the neighbours of U+AC00 and U+D7A3,
// surrogates, sequences cut short or with a bad continuation byte, at the
// end of the text and before more of it.
func TestLowerDecodes(t *testing.T) {
	var all []rune
	for r := rune(0xAC00); r <= 0xD7A3; r++ {
		all = append(all, r)
	}
	texts := []string{string(all), "가", "힣", "\uABFF", "\uD7A4", "\uD7FF", "\uE000", "\uFFFD"}
	for _, b := range [][]byte{
		{0xEA, 0xB0, 0x80}, {0xEA, 0xAF, 0xBF}, {0xED, 0x9E, 0xA3}, {0xED, 0x9E, 0xA4}, {0xED, 0xA0, 0x80},
		{0xEA, 0xB0}, {0xEA}, {0xEA, 0x30, 0x80}, {0xEA, 0xB0, 0xC0}, {0xEA, 0xB0, 0x41}, {0xEE, 0x80, 0x80}, {0xE9, 0xBF, 0xBF},
	} {
		texts = append(texts, string(b), "A"+string(b), string(b)+"B가", "가"+string(b)+"힣")
	}
	var tk Tokenizer
	for _, text := range texts {
		var want []rune
		for _, r := range norm.NFC.String(text) {
			want = append(want, fold(r))
		}
		if got := tk.lower(text); !slices.Equal(got, want) {
			t.Errorf("lower(%+q) = %+q, want %+q", text, string(got), string(want))
		}
	}
}

// TestAppendUTF8 compares appendUTF8, which encodes ASCII and the
// characters of three bytes itself, with the standard conversion, around
// every boundary of the encoding and on what is no character.
func TestAppendUTF8(t *testing.T) {
	rs := []rune{0, 'a', 0x7F, 0x80, 0x7FF, 0x800, 0xAC00, 0xD7A3, 0xD7FF, 0xD800, 0xDFFF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x10FFFF, 0x110000, -1}
	for _, r := range rs {
		if got, want := string(AppendUTF8([]byte("x"), []rune{r, 'y'})), "x"+string([]rune{r, 'y'}); got != want {
			t.Errorf("AppendUTF8(%U) = %+q, want %+q", r, got, want)
		}
	}
	if got, want := string(AppendUTF8(nil, rs)), string(rs); got != want {
		t.Errorf("AppendUTF8(%U) = %+q, want %+q", rs, got, want)
	}
}

// vectorInputs are the texts of the vectors that the search package and
// js-test/tokenize.test.js run (testdata/tokenize/vectors.json).
func vectorInputs(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "tokenize", "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vf struct {
		Cases []struct {
			In string `json:"in"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(data, &vf); err != nil {
		t.Fatal(err)
	}
	if len(vf.Cases) < 20 {
		t.Fatalf("only %d vectors; the file looks truncated", len(vf.Cases))
	}
	out := make([]string, len(vf.Cases))
	for i, c := range vf.Cases {
		out[i] = c.In
	}
	return out
}
