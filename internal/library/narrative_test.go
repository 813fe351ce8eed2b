package library

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/tokenize"
)

// TestTopKeys compares topKeys with sorting every key and keeping the
// first ones, on lists with many equal weights, shorter and longer than
// the number kept.
func TestTopKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 500 {
		n := rng.IntN(40)
		var all []scoredKey
		for i := range n {
			all = append(all, scoredKey{key: fmt.Sprintf("en:k%03d", rng.IntN(1000)*100+i), w: float64(rng.IntN(4)) / 2, kf: keyForm{form: uint32(i)}})
		}
		var top []scoredKey
		for _, k := range all {
			top = topKeys(top, k, wordsPerLang)
		}
		want := slices.Clone(all)
		slices.SortFunc(want, func(a, b scoredKey) int {
			return cmp.Or(cmp.Compare(b.w, a.w), cmp.Compare(a.key, b.key))
		})
		want = want[:min(len(want), wordsPerLang)]
		if !slices.Equal(top, want) {
			t.Fatalf("round %d: topKeys gave\n%v\nwant\n%v", round, top, want)
		}
	}
}

// TestStoryWords checks the words a story gives as keys, read through
// the search tokenizer: stems and Korean words without particles, pairs
// of neighbouring story words within a clause, each key once with the
// form first written, and no digits, stop words, predicates or words of
// the organisation.
func TestStoryWords(t *testing.T) {
	tab := newStrTable()
	r := newStoryReader(tab, tokenize.EachWord)
	c := &cases.Case{Org: "Acme Widgets", OrgSlug: "acme-widgets", OrgKo: "애크미"}
	c.Title = cases.Bilingual{En: "Acme's ingress controllers cordoned, v1.12 nodes drained; controller restarted", Ko: "인그레스 컨트롤러가 멈췄다. 애크미의 노드 풀이 바닥나는 3월에"}
	var got []string
	for _, kf := range r.keys(c) {
		got = append(got, tab.strs[kf.key]+"="+tab.form(kf.form, r.pairForms))
	}
	want := []string{
		"en:ingress=ingress", "en:controller=controllers", "en:ingress controller=ingress controllers",
		"en:cordon=cordoned", "en:controller cordon=controllers cordoned",
		// "v1.12" breaks the clause and "12" is a number: no pair with "nodes".
		"en:nod=nodes", "en:drain=drained", "en:nod drain=nodes drained",
		// "controller" again is no new key, but its pair with "restarted" is.
		"en:restart=restarted", "en:controller restart=controller restarted",
		"ko:인그레스=인그레스", "ko:컨트롤러=컨트롤러", "ko:인그레스 컨트롤러=인그레스 컨트롤러",
		// "멈췄다" is a predicate, "애크미의" the organisation, "풀이" one
		// syllable and "3월에" a number; "바닥나는" loses its ending.
		"ko:노드=노드", "ko:바닥나=바닥나",
	}
	if !slices.Equal(got, want) {
		t.Errorf("keys:\n got %q\nwant %q", got, want)
	}
}

// TestNarrativeSmallLibrary: in a library of two cases, the words both
// stories share weigh 0 (the log of 2/2), words and phrases alike, and are
// still keys of both, in the order of the keys.
func TestNarrativeSmallLibrary(t *testing.T) {
	story := func(id, title string) *cases.Case {
		return &cases.Case{ID: id, Org: "Org " + id, OrgSlug: "org-" + strings.ToLower(id),
			Title: cases.Bilingual{En: title, Ko: "캐시 서버가 멈춤"}}
	}
	lib := &cases.Library{Cases: []*cases.Case{
		story("A", "Cache stampede overloaded database"),
		story("B", "Cache stampede after deploy"),
	}}
	nar := deriveNarrative(lib, tokenize.EachWord)
	want := []string{"en:cach", "en:cach stamped", "en:stamped", "ko:멈춤", "ko:서버", "ko:서버 멈춤", "ko:캐시", "ko:캐시 서버"}
	for i := range lib.Cases {
		if !slices.Equal(nar.words[i], want) {
			t.Errorf("case %d: keys %q, want %q", i, nar.words[i], want)
		}
	}
	if nar.forms["en:cach stamped"] != "cache stampede" {
		t.Errorf("form of en:cach stamped: %q", nar.forms["en:cach stamped"])
	}
}

// TestEachWordBySpaces: the tokenizer reads a text as it reads each of
// its pieces between ASCII spaces, one after the other, which is what lets
// the story reader read a piece once and remember its words. The texts
// are every story of content/ and of 300 generated cases, and random
// strings of characters that the tokenizer treats apart: combining marks,
// Hangul jamo, apostrophes, digits with Korean counters, full-width forms.
func TestEachWordBySpaces(t *testing.T) {
	type word struct {
		term, raw string
		hangul    bool
	}
	read := func(text string) []word {
		var out []word
		tokenize.EachWord(text, func(term, raw []byte, hangul bool) {
			out = append(out, word{string(term), string(raw), hangul})
		})
		return out
	}
	check := func(text string) {
		t.Helper()
		var pieces []word
		for p := range strings.SplitSeq(text, " ") {
			pieces = append(pieces, read(p)...)
		}
		if whole := read(text); !slices.Equal(whole, pieces) {
			t.Fatalf("%q:\nwhole  %+v\npieces %+v", text, whole, pieces)
		}
	}
	for _, c := range narrativeTestCases(t) {
		for _, lang := range cases.Languages {
			check(c.Title.Get(lang))
			check(c.Summary.Get(lang))
			check(c.Trigger.Get(lang))
			for _, r := range c.Remediation {
				check(r.Get(lang))
			}
		}
	}
	alphabet := []rune("aAbZé\u0301\u0308 ' ’-_./:3월에일개 \u1100\u1161\u11a8한국어를 ΣΑΣ ＡＰＩ\u00a0\t\nİı")
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		rs := make([]rune, rng.IntN(16))
		for i := range rs {
			rs[i] = alphabet[rng.IntN(len(alphabet))]
		}
		check(string(rs))
	}
}

// narrativeTestCases are the cases of content/ and 300 generated ones (60
// with -short).
func narrativeTestCases(t *testing.T) []*cases.Case {
	t.Helper()
	lib := loadContent(t, contentFS(t))
	n := 300
	if testing.Short() {
		n = 60
	}
	gen, list := cases.Load(gencases.MapFS(gencases.Options{N: n, Seed: 7}))
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	return append(slices.Clone(lib.Cases), gen.Cases...)
}

// TestNarrativeMatchesReference compares deriveNarrative with the plain
// reading it stands for: every clause through the tokenizer, keys and
// pairs made as strings, each case's keys sorted by weight and key. The
// reader's remembered pieces, words and pairs, its numbering across
// workers and its picking on every worker must change nothing.
func TestNarrativeMatchesReference(t *testing.T) {
	all := narrativeTestCases(t)
	for _, lib := range []*cases.Library{{Cases: all[:34]}, {Cases: all}} {
		got := deriveNarrative(lib, tokenize.EachWord)
		words, forms := referenceNarrative(lib)
		for i, c := range lib.Cases {
			if !slices.Equal(got.words[i], words[i]) {
				t.Errorf("%d cases, %s: keys\n got %q\nwant %q", len(lib.Cases), c.ID, got.words[i], words[i])
			}
		}
		if !maps.Equal(got.forms, forms) {
			t.Errorf("%d cases: forms differ: %d, want %d", len(lib.Cases), len(got.forms), len(forms))
			for k, v := range forms {
				if got.forms[k] != v {
					t.Errorf("form of %q: %q, want %q", k, got.forms[k], v)
				}
			}
		}
	}
}

// TestOwnWord compares ownWord with its first form on every story word of
// the test cases against every organisation's words.
func TestOwnWord(t *testing.T) {
	first := func(term string, own []string) bool {
		for _, o := range own {
			if term == o || utf8.RuneCountInString(o) >= 3 && strings.HasPrefix(term, o) {
				return true
			}
		}
		return false
	}
	all := narrativeTestCases(t)
	terms := map[string]bool{}
	for _, c := range all {
		tokenize.EachWord(c.Title.En+" "+c.Title.Ko+" "+c.Summary.En, func(term, _ []byte, _ bool) { terms[string(term)] = true })
	}
	checked := 0
	for _, c := range all {
		own := orgWords(c)
		for term := range terms {
			if got, want := ownWord(term, own), first(term, own); got != want {
				t.Fatalf("ownWord(%q, %q) = %v, want %v", term, own, got, want)
			}
			if first(term, own) {
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no term was an organisation's word")
	}
}

func orgWords(c *cases.Case) []string {
	var own []string
	tokenize.EachWord(c.Org+" "+strings.ReplaceAll(c.OrgSlug, "-", " ")+" "+c.OrgKo, func(term, _ []byte, _ bool) {
		if !slices.Contains(own, string(term)) {
			own = append(own, string(term))
		}
	})
	return own
}

// referenceNarrative is deriveNarrative written plainly.
func referenceNarrative(lib *cases.Library) ([][]string, map[string]string) {
	type kf struct{ key, form string }
	perCase := make([][]kf, len(lib.Cases))
	df := map[string]int{}
	for i, c := range lib.Cases {
		own := orgWords(c)
		seen := map[string]bool{}
		add := func(key, form string) {
			if !seen[key] {
				seen[key] = true
				perCase[i] = append(perCase[i], kf{key, form})
				df[key]++
			}
		}
		for _, lang := range cases.Languages {
			texts := []string{c.Title.Get(lang), c.Summary.Get(lang), c.Trigger.Get(lang)}
			for _, r := range c.Remediation {
				texts = append(texts, r.Get(lang))
			}
			for _, text := range texts {
				text = strings.NewReplacer("'s ", " ", "’s ", " ").Replace(text)
				for len(text) > 0 {
					end, size := clauseBreak(text)
					var prev *kf
					tokenize.EachWord(text[:end], func(term, raw []byte, hangul bool) {
						if len(term) == 0 || hasDigit(term) || !storyTerm(term, raw, hangul) || ownWord(string(term), own) {
							prev = nil
							return
						}
						w := kf{lang + ":" + string(term), string(raw)}
						if hangul {
							w.form = string(term)
						}
						add(w.key, w.form)
						if prev != nil {
							add(prev.key+" "+string(term), prev.form+" "+w.form)
						}
						prev = &w
					})
					text = text[min(len(text), end+size):]
				}
			}
		}
	}
	n := len(lib.Cases)
	weight := func(key string) float64 {
		w := math.Log(float64(n) / float64(df[key]))
		if strings.Contains(key, " ") {
			w *= 1.5
		}
		return w
	}
	words := make([][]string, n)
	forms := map[string]string{}
	for i, kfs := range perCase {
		for _, lang := range cases.Languages {
			var list []kf
			for _, k := range kfs {
				if d := df[k.key]; strings.HasPrefix(k.key, lang+":") && d >= 2 && d <= max(3, n/8) {
					list = append(list, k)
				}
			}
			slices.SortStableFunc(list, func(a, b kf) int {
				return cmp.Or(cmp.Compare(weight(b.key), weight(a.key)), strings.Compare(a.key, b.key))
			})
			for _, k := range list[:min(len(list), wordsPerLang)] {
				words[i] = append(words[i], k.key)
				if _, ok := forms[k.key]; !ok {
					forms[k.key] = k.form
				}
			}
		}
	}
	return words, forms
}
