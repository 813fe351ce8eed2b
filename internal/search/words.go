package search

import (
	"slices"
	"sync"
	"unicode/utf8"
)

var tokenizers = sync.Pool{New: func() any { return new(tokenizer) }}

// indexWord is one word of a text as the index reads it.
type indexWord struct {
	// Term is what the index records for the word: an English stem
	// ("cordon" for "cordoned") or a Korean word stripped of its particle
	// ("파드" for "파드가"); "" for a stop word or a bare particle.
	Term string
	// Raw is the word as written, lower-cased.
	Raw string
	// Hangul says whether the word is written in Hangul.
	Hangul bool
}

// wordsOf returns the words of text in text order, with the terms the index
// gives them, as a list (EachWord without the callback, for the tests).
func wordsOf(text string) []indexWord {
	var out []indexWord
	EachWord(text, func(term, raw []byte, hangul bool) {
		out = append(out, indexWord{Term: string(term), Raw: string(raw), Hangul: hangul})
	})
	return out
}

// EachWord calls each with the words of text in text order, as wordsOf
// returns them: its term (empty for a stop word), the word as written
// (lower-cased), both in UTF-8, and whether it is written in Hangul. The
// bytes are the tokenizer's own and valid only until each returns: a
// caller that keeps a word copies it, and one that only looks it up in a
// map or compares it makes no string per word (which, at two strings a
// word, was a third of the narrative's time). Its signature names no type
// of this package, so that package site can take it as site.Options.Words
// without importing search.
func EachWord(text string, each func(term, raw []byte, hangul bool)) {
	// Callers read texts a clause at a time: a tokenizer's buffers are
	// worth keeping from one call to the next.
	tk := tokenizers.Get().(*tokenizer)
	defer tokenizers.Put(tk)
	tk.eachWord(text, func(w *word) {
		term, raw := tk.wordBytes(w)
		each(term, raw, w.hangul)
	})
}

// wordBytes encodes the term and the raw form of w in UTF-8, in a buffer
// that the next call reuses. A term is most often the start of the word as
// written (a stem without its ending, a Korean word without its particle)
// and then shares its bytes.
func (tk *tokenizer) wordBytes(w *word) (term, raw []byte) {
	// A character takes at most four bytes.
	b := slices.Grow(tk.utf8[:0], 4*(len(w.raw)+len(w.term)))
	if len(w.term) > 0 && len(w.term) <= len(w.raw) && &w.term[0] == &w.raw[0] {
		b = appendUTF8(b, w.term)
		n := len(b)
		b = appendUTF8(b, w.raw[len(w.term):])
		keep(&tk.utf8, b)
		return b[:n], b
	}
	b = appendUTF8(b, w.raw)
	n := len(b)
	b = appendUTF8(b, w.term)
	keep(&tk.utf8, b)
	return b[n:], b[:n]
}

// appendUTF8 appends the UTF-8 encoding of rs to b.
func appendUTF8(b []byte, rs []rune) []byte {
	for _, r := range rs {
		switch {
		case uint32(r) < utf8.RuneSelf:
			b = append(b, byte(r))
		case r >= 0x800 && r < 0xd800:
			// Three bytes, Hangul syllables among them, encoded here
			// without a call; no surrogate lies below U+D800.
			b = append(b, byte(0xe0|r>>12), byte(0x80|r>>6&0x3f), byte(0x80|r&0x3f))
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return b
}
