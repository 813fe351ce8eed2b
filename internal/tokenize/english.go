package tokenize

import (
	"strings"
	"unicode/utf8"
)

// englishStop are words too common to be worth an index entry. They are
// checked before stemming.
var englishStop = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true,
	"been": true, "but": true, "by": true, "for": true, "from": true, "has": true,
	"had": true, "have": true, "in": true, "into": true, "is": true, "it": true,
	"its": true, "of": true, "on": true, "or": true, "that": true, "the": true,
	"their": true, "this": true, "to": true, "was": true, "were": true, "which": true,
	"with": true,
}

// englishStopKeys holds the stop words as stopKey packs them, in a small
// open-addressed table that isStop probes without a map's hashing, and
// maxStopLen the length of the longest: a longer word needs no look-up.
var englishStopKeys, maxStopLen = func() (t [64]uint64, n int) {
	for w := range englishStop {
		k := stopKey([]rune(w))
		if k == 0 {
			panic("tokenize: stop word " + w + " is not short ASCII")
		}
		i := stopSlot(k)
		for t[i] != 0 {
			i = (i + 1) % len(t)
		}
		t[i] = k
		n = max(n, len(w))
	}
	return t, n
}()

// stopSlot is where key k starts its probe of englishStopKeys.
func stopSlot(k uint64) int { return int((k * 0x9E3779B97F4A7C15) >> 58) }

// isStop says whether rs is a stop word.
func isStop(rs []rune) bool {
	if len(rs) > maxStopLen {
		return false
	}
	k := stopKey(rs)
	if k == 0 {
		return false
	}
	for i := stopSlot(k); englishStopKeys[i] != 0; i = (i + 1) % len(englishStopKeys) {
		if englishStopKeys[i] == k {
			return true
		}
	}
	return false
}

// stopKey packs a word of up to eight ASCII characters into an integer, so
// that the stop list is checked without making a string. Any other word
// gets 0, which is no stop word's key.
func stopKey(rs []rune) uint64 { return packRunes(rs, 8, 7) }

// packRunes packs up to n runes of fewer than bits bits each into an
// integer (n×bits must stay under 64), or gives 0 for any other word.
func packRunes(rs []rune, n int, bits uint) uint64 {
	if len(rs) > n {
		return 0
	}
	k := uint64(0)
	for _, r := range rs {
		if r >= 1<<bits {
			return 0
		}
		k = k<<bits | uint64(r)
	}
	return k
}

// alnumTerm returns the term of a run of letters or of digits, or nil for a
// stop word.
func (tk *Tokenizer) alnumTerm(class int, rs []rune) []rune {
	if class == clDigit {
		return rs
	}
	if len(rs) < 2 || isStop(rs) {
		return nil
	}
	return tk.stemEnglish(rs)
}

// stemEnglish is a deliberately light stemmer: plural endings, -ing, -ed and a
// final e, so that "caches", "cache", "cached" and "caching" meet at "cach".
// It only ever removes ASCII endings; the stem is a prefix of w, or a copy
// when it gains a "y".
func (tk *Tokenizer) stemEnglish(w []rune) []rune {
	if len(w) <= 3 {
		return w
	}
	// Every ending below ends in one of these letters; most words end in
	// another one and keep all their letters.
	if last := w[len(w)-1]; last != 's' && last != 'd' && last != 'g' && last != 'e' {
		return w
	}
	has := func(suf string) bool {
		if len(suf) > len(w) {
			return false
		}
		for i := range len(suf) {
			if w[len(w)-len(suf)+i] != rune(suf[i]) {
				return false
			}
		}
		return true
	}
	undouble := func() {
		if k := len(w); k >= 2 && w[k-1] == w[k-2] && w[k-1] < utf8.RuneSelf && isASCIILetter(byte(w[k-1])) && !strings.ContainsRune("lsz", w[k-1]) {
			w = w[:k-1]
		}
	}
	n := len(w)
	switch {
	case n > 4 && (has("ies") || has("ied")):
		start := len(tk.extra)
		tk.extra = append(append(tk.extra, w[:n-3]...), 'y')
		w = tk.extra[start:]
	case has("sses"):
		w = w[:n-2]
	case has("s") && !has("ss") && !has("us") && !has("is"):
		w = w[:n-1]
	case has("ing") && n-3 >= 3:
		w = w[:n-3]
		undouble()
	case has("ed") && n-2 >= 3:
		w = w[:n-2]
		undouble()
	}
	if len(w) > 3 && has("e") {
		w = w[:len(w)-1]
	}
	return w
}

func isASCIILetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }
