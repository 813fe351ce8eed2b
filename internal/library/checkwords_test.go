package library

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
)

// eachCheckWordPlain is eachCheckWord as first written, without its fast
// paths: every piece with a letter outside ASCII lower-cased and split
// again, letters looked up in Unicode's tables, and each Korean ending
// tried in koreanEndings' order. TestEachCheckWordFast holds the two to
// the same words.
func eachCheckWordPlain(s string, f func(string)) {
	word := func(w string) {
		r, _ := utf8.DecodeRuneInString(w)
		if unicode.Is(unicode.Hangul, r) {
			for _, end := range koreanEndings {
				if rest, ok := strings.CutSuffix(w, end); ok && utf8.RuneCountInString(rest) >= 1 {
					w = rest
					break
				}
			}
			if utf8.RuneCountInString(w) < 2 {
				w = ""
			}
		} else {
			if commonWords[w] {
				return
			}
			w = trimEnglish(w)
		}
		if w != "" {
			f(w)
		}
	}
	separates := func(r rune) bool {
		if r < utf8.RuneSelf {
			return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
		}
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}
	piece := func(p string) {
		ascii, upper := true, false
		for i := 0; i < len(p); i++ {
			ascii = ascii && p[i] < utf8.RuneSelf
			upper = upper || 'A' <= p[i] && p[i] <= 'Z'
		}
		switch {
		case ascii && !upper:
			word(p)
		case ascii:
			word(strings.ToLower(p))
		default:
			for _, w := range strings.FieldsFunc(strings.ToLower(p), separates) {
				word(w)
			}
		}
	}
	for _, p := range strings.FieldsFunc(s, separates) {
		piece(p)
	}
}

// TestEachCheckWordFast: eachCheckWord finds the words eachCheckWordPlain
// finds, in the same order, in every action item and lesson of content/
// and of 1,000 generated cases, and in texts made to reach each branch:
// letters that lower-case to more than one rune, upper case outside
// ASCII, words that are a Korean ending and nothing else, Hangul jamo.
func TestEachCheckWordFast(t *testing.T) {
	texts := []string{
		"", "   ", "Add alerts on failing reloads", "ADD ALERTS", "İstanbul DNS", "ÉCOLE école",
		"인그레스가 리로드를", "으로 에서 도록 하도록 로 가", "다음으로 알림을 추가한다", "되도록 빨리 복구했다",
		"ᄀᄁ 한글ᄀ", "Ingress-NGINX 1.9의 리로드가 실패했다", "데이터베이스(DB) 연결 풀을 늘린다.",
		"ǅemal ΣΑΣ σας", "k8s 1.29로 올린다; x", "한국어English섞임 MIXED한국어",
	}
	add := func(cs []*cases.Case) {
		for _, c := range cs {
			for _, a := range c.ActionItems {
				texts = append(texts, a.Text.En, a.Text.Ko)
			}
			if c.Lessons != nil {
				texts = append(texts, c.Lessons.En, c.Lessons.Ko)
			}
		}
	}
	add(loadContent(t, contentFS(t)).Cases)
	add(loadContent(t, gencases.MapFS(gencases.Options{N: 1000, Seed: 1})).Cases)
	words := 0
	for _, text := range texts {
		var got, want []string
		eachCheckWord(text, func(w string) { got = append(got, w) })
		eachCheckWordPlain(text, func(w string) { want = append(want, w) })
		if !slices.Equal(got, want) {
			t.Errorf("words of %q:\n got %q\nwant %q", text, got, want)
		}
		words += len(want)
	}
	if words < 100000 {
		t.Errorf("only %d words compared", words)
	}
}

// TestKoreanEndingsLongestFirst: trimKorean looks endings up by length,
// longest first, which is the order of koreanEndings only while the list
// keeps its longer endings before its shorter ones.
func TestKoreanEndingsLongestFirst(t *testing.T) {
	for i := 1; i < len(koreanEndings); i++ {
		if len(koreanEndings[i]) > len(koreanEndings[i-1]) {
			t.Errorf("koreanEndings: %q comes after the shorter %q", koreanEndings[i], koreanEndings[i-1])
		}
	}
}
