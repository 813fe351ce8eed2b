package site

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"incidentlib/internal/cases"
	"incidentlib/internal/search"
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
			all = append(all, scoredKey{key: fmt.Sprintf("en:k%03d", rng.IntN(1000)*100+i), w: float64(rng.IntN(4)) / 2, form: uint32(i)})
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
	r := newStoryReader(tab, search.EachWord)
	c := &cases.Case{Org: "Acme Widgets", OrgSlug: "acme-widgets", OrgKo: "애크미"}
	c.Title = cases.Bilingual{En: "Acme's ingress controllers cordoned, v1.12 nodes drained; controller restarted", Ko: "인그레스 컨트롤러가 멈췄다. 애크미의 노드 풀이 바닥나는 3월에"}
	var got []string
	for _, kf := range r.keys(c) {
		got = append(got, tab.strs[kf.key]+"="+tab.strs[kf.form])
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
	nar := deriveNarrative(lib, search.EachWord)
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
