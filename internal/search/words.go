package search

import "sync"

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
	EachWord(text, func(term, raw string, hangul bool) {
		out = append(out, indexWord{Term: term, Raw: raw, Hangul: hangul})
	})
	return out
}

// EachWord calls each with the words of text in text order, as wordsOf
// returns them: its term, the word as written (lower-cased) and whether it
// is written in Hangul. Its signature names no type of this package, so
// that package site can take it as site.Options.Words without importing
// search.
func EachWord(text string, each func(term, raw string, hangul bool)) {
	// Callers read texts a clause at a time: a tokenizer's buffers are
	// worth keeping from one call to the next.
	tk := tokenizers.Get().(*tokenizer)
	defer tokenizers.Put(tk)
	tk.eachWord(text, func(w *word) {
		each(string(w.term), string(w.raw), w.hangul)
	})
}
