package library

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/related"
	"incidentlib/internal/tokenize"
)

// TestShownWordsVerbatim: every shared word a reason shows, in either
// language, is written as shown in both cases' narrative texts in that
// language, starting and ending at word boundaries (in Korean, a particle
// may follow it), over the content and a generated library. Pages,
// similar.json, the Markdown twins and the MCP answers all write reasons
// with Library.Reason (api's TestSimilarReasons holds similar.json to it),
// so this is what every one of them shows. A heading's words are written by
// the page's case and by one of the cases under it. The generated library
// has 1,000 cases, 200 with -short.
func TestShownWordsVerbatim(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	gen, list := cases.Load(gencases.MapFS(gencases.Options{N: n, Seed: 1}))
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	for _, lib := range []*cases.Library{loadContent(t, contentFS(t)), gen} {
		s := derived(t, lib)
		shown := map[string]int{}
		for _, c := range lib.Cases {
			for _, g := range s.Related(c.ID) {
				for _, lang := range cases.Languages {
					for _, w := range quoted(s.Reason(lang, g.Kind, g.Reason)) {
						ok := false
						for _, l := range g.Links {
							ok = ok || writesWord(lib.ByID[l.ID], lang, w)
						}
						if !ok || !writesWord(c, lang, w) {
							t.Errorf("%s %s: heading shows %q, which the case and none of the cases under it write", c.ID, lang, w)
						}
					}
					for _, l := range g.Links {
						for _, w := range quoted(s.Reason(lang, l.Kind, l.Reason)) {
							shown[lang]++
							for _, x := range []*cases.Case{c, lib.ByID[l.ID]} {
								if !writesWord(x, lang, w) {
									t.Errorf("%s→%s %s: reason shows %q, which %s does not write", c.ID, l.ID, lang, w, x.ID)
								}
							}
						}
					}
				}
			}
		}
		// Not a test that passes by showing nothing.
		for _, lang := range cases.Languages {
			if shown[lang] < 20 {
				t.Errorf("%d cases: %d shared words shown in %s, want some", len(lib.Cases), shown[lang], lang)
			}
		}
	}
}

// quoted returns the words a reason shows between “ and ”.
func quoted(reason string) []string {
	var out []string
	for {
		_, after, ok := strings.Cut(reason, "“")
		if !ok {
			return out
		}
		w, rest, _ := strings.Cut(after, "”")
		out = append(out, w)
		reason = rest
	}
}

// writesWord says whether a story text of c in lang holds w with no letter,
// digit or hyphen before it, and none after it but a Hangul syllable in
// Korean (a particle).
func writesWord(c *cases.Case, lang, w string) bool {
	inWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' }
	for _, t := range storyTexts(c, lang) {
		for off := 0; ; {
			i := strings.Index(t[off:], w)
			if i < 0 {
				break
			}
			i += off
			before, _ := utf8.DecodeLastRuneInString(t[:i])
			after, _ := utf8.DecodeRuneInString(t[i+len(w):])
			if (i == 0 || !inWord(before)) && (i+len(w) == len(t) || !inWord(after) || lang == "ko" && after >= 0xAC00 && after <= 0xD7A3) {
				return true
			}
			off = i + 1
		}
	}
	return false
}

// TestShownPhrases: what a reason shows for a narrative key two cases
// share, from texts where the words as the tokenizer keys them ("영향받 노드",
// "oom kill", "google kubernet") were shown before: the phrase both write,
// or nothing.
func TestShownPhrases(t *testing.T) {
	for _, tc := range []struct {
		lang, a, b string
		key        string // the key's words as written, read as the narrative reads them
		want       string // "" for nothing shown
	}{
		{"ko", "영향받은 노드를 비웠다", "영향받은 노드가 멈췄다", "영향받은 노드", "영향받은 노드"},
		{"ko", "영향받은 노드를 비웠다", "영향받는 노드가 멈췄다", "영향받은 노드", ""},
		{"ko", "파이프라인이 뜻하지 않은 변경을 적용했다", "파이프라인이 뜻하지 않게 멈췄다", "파이프라인 뜻하지", ""},
		{"ko", "장애 기록에 적혀 있지 않다", "원인은 적혀 있지 않다", "적혀 있지", ""},
		{"ko", "자원에 대한 요청을 줄였다", "자원에 대한 제한을 걸었다", "자원 대한", ""},
		{"ko", "파드가 OOM kill 됐다", "파드는 OOM kill로 끝났다", "OOM kill", "OOM kill"},
		{"ko", "Pingdom 알림이 울렸다", "Pingdom 알림을 받았다", "Pingdom 알림", "Pingdom 알림"},
		{"ko", "노드 롤오버가 시작됐다", "노드 롤오버 중에 파드가 멈췄다", "노드 롤오버", "노드 롤오버"},
		{"ko", "노드가 NotReady 상태가 됐다", "노드가 NotReady로 바뀌었다", "노드가 NotReady", ""},
		{"ko", "노드를 한꺼번에 바꿨다", "노드를 한꺼번에 지웠다", "노드를 한꺼번에", ""},
		{"ko", "external-dns가 레코드를 지웠다", "external-dns의 설정", "external-dns", "external-dns"},
		{"ko", "파드를 cordon했다", "노드를 cordon했다", "cordon", ""},
		{"en", "external-dns deleted the records", "a bug in external-dns", "external-dns", "external-dns"},
		{"en", "on Google Kubernetes Engine", "Google Kubernetes Engine (GKE) nodes", "Google Kubernetes", "Google Kubernetes"},
		{"en", "the nodes were cordoned", "an engineer cordoned two nodes", "cordoned", "cordoned"},
		{"en", "the nodes were cordoned", "cordoning the nodes", "cordoned", ""},
		{"en", "pods were OOM-killed", "pods were OOM killed", "OOM killed", ""},
		{"en", "pods were OOM killed", "the database was OOM killed twice", "OOM killed", "OOM killed"},
		{"en", "the kubeconfig pointed elsewhere", "KUBECONFIG was set", "kubeconfig", ""},
	} {
		key := tc.lang + ":"
		tokenize.EachWord(tc.key, func(term, _ []byte, _ bool) {
			if len(term) > 0 {
				if !strings.HasSuffix(key, ":") {
					key += " "
				}
				key += string(term)
			}
		})
		a := &cases.Case{ID: "IL-0001", Title: cases.Bilingual{En: "-", Ko: "-"}}
		b := &cases.Case{ID: "IL-0002", Title: cases.Bilingual{En: "-", Ko: "-"}}
		if tc.lang == "ko" {
			a.Summary.Ko, b.Summary.Ko = tc.a, tc.b
		} else {
			a.Summary.En, b.Summary.En = tc.a, tc.b
		}
		lib := &cases.Library{Cases: []*cases.Case{a, b}}
		links := [][]related.Link{
			{{ID: b.ID, Reason: related.Reason{Words: []string{key}}}},
			{{ID: a.ID, Reason: related.Reason{Words: []string{key}}}},
		}
		showPhrases(lib, links, tokenize.EachWord)
		var want []string
		if tc.want != "" {
			want = []string{tc.lang + ":" + tc.want}
		}
		for i, ls := range links {
			if got := ls[0].Words; strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("%q / %q, key %q (link %d): shows %q, want %q", tc.a, tc.b, key, i, got, want)
			}
		}
	}
}
