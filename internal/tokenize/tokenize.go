package tokenize

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// The tokenizer below has a counterpart in static/js/search.js. Both must give the
// same terms for the same text, or a query typed in the browser will not find
// what the build indexed; testdata/tokenize/vectors.json holds the cases that
// both test suites run. Change one side only together with the other.

// word is one analysed word of a text. Its slices point into the buffers of
// the tokenizer that made it and are valid only until its callback returns.
type Word struct {
	hangul bool
	// term is the word's main index term: the stem of an English or Korean
	// word, a number, or the joined form of a letter-digit mix ("k8s"). It is
	// empty for a stop word.
	term []rune
	// parts are further index terms of a Korean stem of three or more
	// syllables: its character bigrams, so that a two-syllable word finds it
	// inside a compound ("로드" in "로드밸런서"), and, from four syllables, its
	// trigrams, so that a three-syllable word does ("밸런서").
	parts [][]rune
	// chain is what a query word of four or more syllables must match all
	// of when its stem itself is not a term: its trigrams, which overlap, so
	// that only text holding the word's syllables in a row matches
	// ("레지스터" does not find "레지스트리" next to "클러스터").
	chain [][]rune
	// alt is a term that a query accepts instead of term: the whole Korean
	// word when stripping left a single syllable ("팀이" → "팀", "팀이"), or
	// the parts of a letter-digit mix ("502s" → "502").
	alt [][]rune
	// raw is the lower-cased word as written, for prefix matching.
	raw []rune
	// ended says that a Korean word ends in a particle or ending that was
	// stripped: the word is finished, so a query does not complete it.
	ended bool
	// noun says that what was stripped is a particle that follows nouns
	// only (nounParticles), so the stem is a word of its own ("메모리가" →
	// "메모리"), unlike a verb's stem ("바닥나는" → "바닥나").
	noun bool
	// compound joins the previous Korean word, across a space, to this one's
	// stem, after CompoundMark ("로드 밸런서를" → "+로드밸런서"), so that the
	// compound typed without the space finds it. Only whole words join:
	// "인증 서비스" gives "+인증서비스", never "인증서", and the mark keeps
	// such terms out of prefix matches (typing "인증서" must not find it).
	// Index only; a query word looks its stem up with the mark too.
	compound []rune
}

// A tokenizer splits texts into words, keeping its buffers from one text to
// the next so that the index build makes no garbage per word: words are
// slices of the lower-cased text wherever they can be, and of a small scratch
// space otherwise. The zero value is ready to use; one tokenizer serves one
// goroutine.
type Tokenizer struct {
	rs    []rune   // the lower-cased text
	runs  []run    // the script runs of the current chunk
	w     Word     // the word being handed out
	extra []rune   // the current word's terms that are not slices of rs: "y" stems, compounds
	lists [][]rune // backing store of the current word's parts, chain and alt
	// phrase holds, per entry of phrases, how many of its words the last
	// words of the text matched, valid for the phrases in active (bit i for
	// phrase i), those under way.
	phrase []int
	active uint32
	utf8   []byte // the current word in UTF-8, for EachWord
}

// run is a script run inside a chunk: tokenizer.rs[start:end]. It holds no
// pointers, so that filling the reused list of runs costs no write barriers.
type run struct {
	class      int
	start, end int
}

// Analyze splits text into words, copied out of the tokenizer. It is the
// single place where the rules live; IndexTerms and parseQuery only arrange its
// output.
func Analyze(text string) []Word {
	var tk Tokenizer
	var out []Word
	tk.EachWord(text, func(w *Word) {
		out = append(out, Word{
			hangul: w.hangul,
			term:   slices.Clone(w.term), raw: slices.Clone(w.raw), compound: slices.Clone(w.compound), ended: w.ended,
			parts: cloneAll(w.parts), chain: cloneAll(w.chain), alt: cloneAll(w.alt),
		})
	})
	return out
}

func cloneAll(list [][]rune) [][]rune {
	if list == nil {
		return nil
	}
	out := make([][]rune, len(list))
	for i, rs := range list {
		out[i] = slices.Clone(rs)
	}
	return out
}

// eachWord calls f with each word of text. The word is the tokenizer's own,
// handed over without a copy.
func (tk *Tokenizer) EachWord(text string, f func(*Word)) {
	tk.EachWordAfter(text, nil, false, f)
}

// EachWordAfter is eachWord for a text read as the continuation of another,
// after an ASCII space: prevKo and spaceOnly are the state of Korean
// compounds that the other left (see below), and it returns the state that
// text leaves, prevKo valid until the next call. Nothing else crosses an
// ASCII space: the analyser's memo of pieces (see analyser.pieceTerms)
// reads a text piece by piece and joins them through this state alone.
//
// prevKo is the stem of the previous word when it was a Korean word at the
// end of its chunk with nothing stripped; spaceOnly says whether only
// whitespace has been seen since then. It is a slice of rs before the
// current chunk, which the chunk's rewriting below never reaches, or of
// memory outside rs.
func (tk *Tokenizer) EachWordAfter(text string, prevKo []rune, spaceOnly bool, f func(*Word)) ([]rune, bool) {
	rs := tk.lower(text)
	i := 0
	for i < len(rs) {
		c := classOf(rs[i])
		if c == clSep || c == clSpace || c == clApos {
			if c != clSpace {
				spaceOnly = false
			}
			i++
			continue
		}
		var runs []run
		runs, i = tk.chunk(rs, i)
		prevKo = tk.chunkWords(rs, runs, prevKo, spaceOnly, f)
		spaceOnly = true
	}
	return prevKo, spaceOnly
}

// chunk collects the chunk of rs that starts at i as script runs, and
// returns them with the place after the chunk. Apostrophes inside words
// are dropped by moving the chunk's runes down in place, so that every run
// is a subslice of rs.
func (tk *Tokenizer) chunk(rs []rune, i int) ([]run, int) {
	runs := tk.runs[:0]
	wpos := i
	for i < len(rs) {
		r := rs[i]
		c := classOf(r)
		if c == clApos {
			// Swallow an apostrophe between two letters.
			if len(runs) > 0 && runs[len(runs)-1].class == clLetter && i+1 < len(rs) && classOf(rs[i+1]) == clLetter {
				i++
				continue
			}
			break
		}
		if c == clSep || c == clSpace {
			break
		}
		// A combining mark stays with what it marks. Marks start at U+0300.
		if c == clLetter && r >= 0x300 && len(runs) > 0 && unicode.IsMark(r) {
			c = runs[len(runs)-1].class
		}
		if len(runs) == 0 || runs[len(runs)-1].class != c {
			if len(runs) > 0 {
				runs[len(runs)-1].end = wpos
			}
			runs = append(runs, run{class: c, start: wpos})
		}
		rs[wpos] = r
		wpos++
		i++
		// The rest of a run of ASCII letters or digits, or of Hangul
		// syllables, most of every text, needs none of the checks
		// above: it continues the run.
		switch c {
		case clLetter, clDigit:
			for i < len(rs) && rs[i] < utf8.RuneSelf && int(asciiClass[rs[i]]) == c {
				rs[wpos] = rs[i]
				wpos++
				i++
			}
		case clHangul:
			for i < len(rs) && rs[i] >= 0xAC00 && rs[i] <= 0xD7A3 {
				rs[wpos] = rs[i]
				wpos++
				i++
			}
		}
	}
	runs[len(runs)-1].end = wpos
	keep(&tk.runs, runs)
	return runs, i
}

// chunkWords hands f the words of a chunk's runs, given the state of
// Korean compounds before it (see EachWordAfter), and returns prevKo after
// it.
func (tk *Tokenizer) chunkWords(rs []rune, runs []run, prevKo []rune, spaceOnly bool, f func(*Word)) []rune {
	w := &tk.w
	for k := 0; k < len(runs); k++ {
		r := runs[k]
		tk.extra, tk.lists = tk.extra[:0], tk.lists[:0]
		if r.class == clHangul {
			stripped := tk.koreanWord(rs[r.start:r.end])
			if k == 0 && spaceOnly && prevKo != nil && w.term != nil {
				start := len(tk.extra)
				tk.extra = append(append(append(tk.extra, CompoundMark), prevKo...), w.term...)
				w.compound = tk.extra[start:]
			}
			f(w)
			prevKo = nil
			if k == len(runs)-1 && !stripped && w.term != nil {
				prevKo = w.term
			}
			continue
		}
		// A run of letters and digits: join consecutive ones.
		j := k
		for j+1 < len(runs) && runs[j+1].class != clHangul {
			j++
		}
		if j == k && r.class == clDigit && k+1 < len(runs) && tk.counter(rs, r, runs[k+1]) {
			// A number with its counter is one unit ("3월에" → "3월"),
			// found by the number alone too.
			f(w)
			k++
			prevKo = nil
			continue
		}
		if j == k {
			raw := rs[r.start:r.end]
			w.set(false, tk.alnumTerm(r.class, raw), raw, nil)
		} else {
			for _, p := range runs[k : j+1] {
				if t := tk.alnumTerm(p.class, rs[p.start:p.end]); t != nil {
					tk.lists = append(tk.lists, t)
				}
			}
			var parts [][]rune
			if len(tk.lists) > 0 {
				parts = tk.lists
			}
			joined := rs[r.start:runs[j].end]
			w.set(false, joined, joined, parts)
		}
		f(w)
		k = j
		prevKo = nil
	}
	return prevKo
}

// set makes w a word with the given term, raw form and alternatives,
// and nothing else. It sets the fields one by one: assigning a whole word
// made a copy of it through the write barrier, for every word.
//
// Storing a pointer, nil too, costs a write barrier while the collector
// marks, which at six a word was a tenth of the tokenizer's time in a
// build: set stores only the pointers that change, so that most words
// store two, their term and their raw form.
func (w *Word) set(hangul bool, term, raw []rune, alt [][]rune) {
	w.hangul, w.ended, w.noun = hangul, false, false
	w.term, w.raw = term, raw
	if alt != nil || w.alt != nil {
		w.alt = alt
	}
	if w.parts != nil {
		w.parts = nil
	}
	if w.chain != nil {
		w.chain = nil
	}
	if w.compound != nil {
		w.compound = nil
	}
}

// keep makes *dst the slice s, which append made from *dst, storing its
// pointer only when append moved it: otherwise only the length changes,
// and no write barrier is needed (see word.set).
func keep[T any](dst *[]T, s []T) {
	if cap(s) == cap(*dst) {
		*dst = (*dst)[:len(s)]
	} else {
		*dst = s
	}
}

// CompoundMark starts the index terms of Korean compounds written with a
// space. No query word can start with it, as it is a separator.
const CompoundMark = '+'

// IndexTerms returns the terms the index records for text, in text order and
// with repeats, so that counting them gives term frequencies.
func IndexTerms(text string) []string {
	var tk Tokenizer
	var out []string
	tk.EachIndexTerm(text, func(t []rune, _ bool) { out = append(out, string(t)) })
	return out
}

// EachIndexTerm calls f with each term IndexTerms would return, in the
// tokenizer's buffers, and whether the term may be offered as a word: an
// English word's stem, or a Korean word as written or without a particle
// that follows nouns only (not a verb's stem, nor parts or compounds).
// Suggestions offer only such terms:
// "바닥나" (a verb stem, never written alone) is a term but no word to
// offer for "바나나". English keeps its stems ("certificat"), which a
// suggestion for a typo needs and which read as the word.
func (tk *Tokenizer) EachIndexTerm(text string, f func(t []rune, word bool)) {
	tk.ResetPhrases()
	tk.EachWord(text, func(w *Word) {
		if w.compound != nil {
			f(w.compound, false)
		}
		tk.Phrases(w, func(t []rune) { f(t, false) })
		if w.term == nil {
			return
		}
		f(w.term, !w.hangul || !w.ended || w.noun)
		for _, t := range w.parts {
			f(t, false)
		}
		for _, t := range w.alt {
			f(t, false)
		}
	})
}
