package search

// Word is one word of a text as the index reads it.
type Word struct {
	// Term is what the index records for the word: an English stem
	// ("cordon" for "cordoned") or a Korean word stripped of its particle
	// ("파드" for "파드가"); "" for a stop word or a bare particle.
	Term string
	// Raw is the word as written, lower-cased.
	Raw string
	// Hangul says whether the word is written in Hangul.
	Hangul bool
}

// Words returns the words of text in text order, with the terms the index
// gives them, for callers that compare texts the way search does (related
// cases weigh the words two narratives share).
func Words(text string) []Word {
	var tk tokenizer
	var out []Word
	tk.eachWord(text, func(w *word) {
		out = append(out, Word{Term: string(w.term), Raw: string(w.raw), Hangul: w.hangul})
	})
	return out
}
