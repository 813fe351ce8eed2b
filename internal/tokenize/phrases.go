package tokenize

import (
	"math/bits"
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
				var tk Tokenizer
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

// phraseFirst gives, by ASCII letter, the phrases whose term or first word
// starts with it, as a set of bits (phrase i is bit i). Only those, and
// the phrases under way, can be started, continued or completed by a word:
// any other phrase stays where it is, at its start.
var phraseFirst = func() (set [utf8.RuneSelf]uint32) {
	if len(phrases) > 32 {
		panic("tokenize: more phrases than bits")
	}
	for i, p := range phrases {
		for _, r := range []rune{p.term[0], p.words[0][0]} {
			if r >= utf8.RuneSelf {
				panic("tokenize: phrase " + string(p.term) + " does not start with ASCII")
			}
			set[r] |= 1 << i
		}
	}
	return set
}()

// firstPhrases is phraseFirst of the first letter of rs.
func firstPhrases(rs []rune) uint32 {
	if len(rs) == 0 || rs[0] >= utf8.RuneSelf {
		return 0
	}
	return phraseFirst[rs[0]]
}

// phrases hands f the term of every phrase that word w completes or
// starts with. It looks at the phrases that w can touch only, in order.
func (tk *Tokenizer) Phrases(w *Word, f func([]rune)) {
	if w.hangul {
		// A Korean word breaks every phrase.
		tk.BreakPhrases()
		return
	}
	key := w.term
	if key == nil {
		key = w.raw
	}
	tk.PhraseStep(w.term, key, f)
}

// PhraseStep is phrases for a word that is not written in Hangul, given by
// its term and its key: its term, or its raw form when it is a stop word.
func (tk *Tokenizer) PhraseStep(term, key []rune, f func([]rune)) {
	touched := tk.active | firstPhrases(key) | firstPhrases(term)
	active := uint32(0)
	for m := touched; m != 0; m &= m - 1 {
		i := bits.TrailingZeros32(m)
		p := &phrases[i]
		if term != nil && len(term) > len(p.term) && slices.Equal(term[:len(p.term)], p.term) {
			f(p.term)
		}
		at := 0
		if tk.active&(1<<i) != 0 {
			at = tk.phrase[i]
		}
		switch {
		case slices.Equal(key, p.words[at]):
			at++
			if at == len(p.words) {
				f(p.term)
				at = 0
			}
		case slices.Equal(key, p.words[0]):
			at = 1
		default:
			at = 0
		}
		tk.phrase[i] = at
		if at > 0 {
			active |= 1 << i
		}
	}
	tk.active = active
}

// PhraseInert reports whether PhraseStep, given term and key, ends every
// phrase and hands out nothing, whatever phrases are under way: the word
// starts with no phrase's term and is no word of any phrase. Most words
// are such, and the analyser's memo of pieces stores them as an end of
// the phrases, not as a word to match.
func PhraseInert(term, key []rune) bool {
	// The key is the term when there is one: a word that starts with a
	// letter no phrase's term or word starts with is inert.
	if len(key) == 0 || key[0] >= utf8.RuneSelf || !phraseLetters[key[0]] {
		return true
	}
	for i := range phrases {
		p := &phrases[i]
		if term != nil && len(term) > len(p.term) && slices.Equal(term[:len(p.term)], p.term) {
			return false
		}
		for _, w := range p.words {
			if slices.Equal(key, w) {
				return false
			}
		}
	}
	return true
}

// phraseLetters are the letters that a term or a word of a phrase starts
// with.
var phraseLetters = func() (set [utf8.RuneSelf]bool) {
	for _, p := range phrases {
		for _, w := range append([][]rune{p.term}, p.words...) {
			if w[0] >= utf8.RuneSelf {
				panic("tokenize: phrase " + string(p.term) + " holds a word that does not start with ASCII")
			}
			set[w[0]] = true
		}
	}
	return set
}()
