package tokenize

import (
	"slices"
	"sync"
	"unicode/utf8"
)

var tokenizers = sync.Pool{New: func() any { return new(Tokenizer) }}

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
	tk := tokenizers.Get().(*Tokenizer)
	defer tokenizers.Put(tk)
	tk.EachWord(text, func(w *Word) {
		term, raw := tk.wordBytes(w)
		each(term, raw, w.hangul)
	})
}

// wordBytes encodes the term and the raw form of w in UTF-8, in a buffer
// that the next call reuses. A term is most often the start of the word as
// written (a stem without its ending, a Korean word without its particle)
// and then shares its bytes.
func (tk *Tokenizer) wordBytes(w *Word) (term, raw []byte) {
	// A character takes at most four bytes.
	b := slices.Grow(tk.utf8[:0], 4*(len(w.raw)+len(w.term)))
	if len(w.term) > 0 && len(w.term) <= len(w.raw) && &w.term[0] == &w.raw[0] {
		b = AppendUTF8(b, w.term)
		n := len(b)
		b = AppendUTF8(b, w.raw[len(w.term):])
		keep(&tk.utf8, b)
		return b[:n], b
	}
	b = AppendUTF8(b, w.raw)
	n := len(b)
	b = AppendUTF8(b, w.term)
	keep(&tk.utf8, b)
	return b[n:], b[:n]
}

// AppendUTF8 appends the UTF-8 encoding of rs to b.
func AppendUTF8(b []byte, rs []rune) []byte {
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

// The parts of a word, for the index and the query parser (see Word's
// fields). Like the word, they are the tokenizer's own buffers.

func (w *Word) Hangul() bool     { return w.hangul }
func (w *Word) Term() []rune     { return w.term }
func (w *Word) Parts() [][]rune  { return w.parts }
func (w *Word) Chain() [][]rune  { return w.chain }
func (w *Word) Alt() [][]rune    { return w.alt }
func (w *Word) Raw() []rune      { return w.raw }
func (w *Word) Ended() bool      { return w.ended }
func (w *Word) Noun() bool       { return w.noun }
func (w *Word) Compound() []rune { return w.compound }

// ResetPhrases starts the phrases afresh, for a new text.
func (tk *Tokenizer) ResetPhrases() {
	if len(tk.phrase) != len(phrases) {
		tk.phrase = make([]int, len(phrases))
	}
	tk.active = 0
}

// BreakPhrases ends every phrase under way, as a Korean word does.
func (tk *Tokenizer) BreakPhrases() { tk.active = 0 }

// IsWordRune reports whether r is part of a word (a letter, a digit or
// Hangul) rather than a separator, whitespace or an apostrophe.
func IsWordRune(r rune) bool { return classOf(r) >= clLetter }
