package search

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// phrases are words that English writes joined, split or hyphenated,
// abbreviations of phrases, and synonyms: the text "crash-looping" or
// "crash loop" is indexed under "crashloop" too, "out-of-memory" under
// "oom", "Kubernetes" under "k8s" (so that the query "k8s" finds it). Words match
// by their stems (stop words as written). A word that starts with a
// phrase's term ("CrashLoopBackOff", "OOMKilled") is indexed under it too.
var phrases = func() []phrase {
	var out []phrase
	for _, l := range []string{
		"crashloop: crash loop", "oom: out of memory", "failover: fail over", "backoff: back off",
		"healthcheck: health check", "timeout: time out", "rollout: roll out", "rollback: roll back",
		"deadlock: dead lock", "hotfix: hot fix",
		"k8s: kubernetes",
	} {
		term, words, _ := strings.Cut(l, ": ")
		p := phrase{term: []rune(term)}
		for _, w := range strings.Fields(words) {
			rs := []rune(w)
			if !englishStop[w] {
				var tk tokenizer
				rs = slices.Clone(tk.stemEnglish(rs))
			}
			p.words = append(p.words, rs)
		}
		out = append(out, p)
	}
	return out
}()

type phrase struct {
	term  []rune
	words [][]rune
}

// phraseFirst marks the first letters of the phrases' terms and first
// words, all ASCII: while no phrase is under way, a word that starts with
// none of them can neither start nor complete one.
var phraseFirst = func() (set [utf8.RuneSelf]bool) {
	for _, p := range phrases {
		for _, r := range []rune{p.term[0], p.words[0][0]} {
			if r >= utf8.RuneSelf {
				panic("search: phrase " + string(p.term) + " does not start with ASCII")
			}
			set[r] = true
		}
	}
	return set
}()

// phrases hands f the term of every phrase that word w completes or
// starts with.
func (tk *tokenizer) phrases(w *word, f func([]rune)) {
	key := w.term
	if key == nil {
		key = w.raw
	}
	if !tk.inPhrase {
		starts := func(rs []rune) bool { return len(rs) > 0 && rs[0] < utf8.RuneSelf && phraseFirst[rs[0]] }
		if w.hangul || !starts(key) && !starts(w.term) {
			return
		}
	}
	tk.inPhrase = false
	for i := range phrases {
		p := &phrases[i]
		if w.hangul {
			tk.phrase[i] = 0
			continue
		}
		if w.term != nil && len(w.term) > len(p.term) && slices.Equal(w.term[:len(p.term)], p.term) {
			f(p.term)
		}
		switch {
		case slices.Equal(key, p.words[tk.phrase[i]]):
			tk.phrase[i]++
			if tk.phrase[i] == len(p.words) {
				f(p.term)
				tk.phrase[i] = 0
			}
		case slices.Equal(key, p.words[0]):
			tk.phrase[i] = 1
		default:
			tk.phrase[i] = 0
		}
		tk.inPhrase = tk.inPhrase || tk.phrase[i] > 0
	}
}
