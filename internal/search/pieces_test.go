package search

import (
	"incidentlib/internal/tokenize"

	"math/rand/v2"
	"slices"
	"testing"

	"incidentlib/internal/cases"
	"incidentlib/internal/repotest"
)

// textTerms is what the analysis of a document reads of one text: its
// terms in order of first occurrence, how often each occurs, whether each
// occurs as a word as written, and the number of occurrences.
type textTerms struct {
	terms []string
	count []int
	word  []bool
	n     int
}

// plainTerms is textTerms of text through eachIndexTerm, the plain reading
// that the analyser's memo of pieces stands for.
func plainTerms(tk *tokenize.Tokenizer, text string) textTerms {
	var out textTerms
	at := map[string]int{}
	tk.EachIndexTerm(text, func(t []rune, word bool) {
		k, ok := at[string(t)]
		if !ok {
			k = len(out.terms)
			at[string(t)] = k
			out.terms, out.count, out.word = append(out.terms, string(t)), append(out.count, 0), append(out.word, false)
		}
		out.count[k]++
		out.word[k] = out.word[k] || word
		out.n++
	})
	return out
}

// memoTerms is textTerms of text through a.pieceTerms, as docTerms reads
// it, leaving a ready for the next text.
func memoTerms(a *analyser, text string) textTerms {
	var out textTerms
	out.n = a.pieceTerms(text, 1)
	for _, id := range a.doc {
		st := &a.state[id]
		out.terms, out.count, out.word = append(out.terms, a.terms[id]), append(out.count, int(st.tf)), append(out.word, st.word)
		st.tf, st.word = 0, false
	}
	a.doc = a.doc[:0]
	return out
}

// TestPieceTermsMatchEachIndexTerm holds the analyser's memo of pieces to
// the plain reading of the tokenizer, on the texts of content/, of
// generated cases and random texts made of what crosses the spaces
// between pieces: Korean words that make compounds, words of phrases,
// other spaces and separators, marks, full-width letters. One analyser
// reads them all, so that most pieces come from its memo, next to other
// pieces than where it learnt them. With -short, 60 generated cases, not
// 300, and 10,000 random texts of each kind, not 30,000.
func TestPieceTermsMatchEachIndexTerm(t *testing.T) {
	var texts []string
	lib, list := cases.Load(repotest.MapFS(t, "content"))
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	for _, c := range lib.Cases {
		d := caseDoc(c, lib.Vocab.Glossary)
		texts = append(texts, d.ID, d.Title[0], d.Title[1], d.Org[0], d.Org[1], d.Summary[0], d.Summary[1], d.OrgAlias)
		texts = append(texts, d.Body...)
	}
	for _, f := range cases.ControlledFacets() {
		for _, term := range lib.Vocab.Terms(f.Field) {
			texts = append(texts, term.ID, term.Label.En, term.Label.Ko)
		}
	}
	content := len(texts)
	generated, random := 300, 30000
	if testing.Short() {
		generated, random = 60, 10000
	}
	docs, _ := libraryDocs(t, generated)
	for _, d := range docs {
		texts = append(texts, d.Title[0], d.Title[1], d.Summary[0], d.Summary[1])
		texts = append(texts, d.Body...)
	}
	generated = len(texts) - content
	pieces := []string{
		" ", " ", " ", "  ", "\t", "\n", "\u00a0", "\u3000", "-", ".", ",", "'", "’", "/", ":",
		"로드", "밸런서를", "밸런서", "인증", "서비스", "메모리가", "팀이", "평가", "는", "을", "3월에", "2024년", "12", "개", "UTC에", "HubSpot의",
		"crash", "Crash", "loop", "looping", "out", "of", "memory", "Out-of-memory", "fail", "over", "k8s", "Kubernetes",
		"CrashLoopBackOff", "OOMKilled", "time", "timeouts", "roll", "back", "the", "a", "x", "503", "v1.12.1",
		"e\u0301", "\u0301", "ＡＰＩ", "İ", "ΣΑΣ", "\u1100\u1161\u11a8", "한국어를",
	}
	// Fewer pieces, among which the Korean compounds and what ends
	// them, so that longer chains of them come about.
	compounds := []string{"로드", "밸런서를", " ", " ", "\t", "\u00a0", ",", "-", "x", "3월"}
	r := rand.New(rand.NewPCG(22, 2))
	for range random {
		texts = append(texts, repotest.Pieces(r, pieces, r.IntN(16)), repotest.Pieces(r, compounds, r.IntN(10)))
	}
	var a analyser
	var tk tokenize.Tokenizer
	for i, text := range texts {
		want := plainTerms(&tk, text)
		got := memoTerms(&a, text)
		if !slices.Equal(got.terms, want.terms) || !slices.Equal(got.count, want.count) || !slices.Equal(got.word, want.word) || got.n != want.n {
			t.Fatalf("text %d (%d from content/, %d generated) %q:\n got %+v\nwant %+v", i, content, generated, text, got, want)
		}
	}
	if a.pieces.n < 1000 {
		t.Errorf("the analyser kept only %d pieces", a.pieces.n)
	}
}
