package search

import (
	"hash/maphash"
	"strings"
)

// The analyser reads a text piece by piece, a piece being what lies
// between two ASCII spaces, and remembers what each piece gives: the
// numbers of its terms, in the order eachIndexTerm hands them out. Texts,
// generated or written, repeat their pieces: of the five million pieces of
// 5,000 generated cases, 147,000 differ. A piece met again then costs a
// look-up and its term numbers, instead of lowering, classifying, stemming
// and numbering every word again.
//
// The tokenizer reads a piece alone as it reads it inside its text, save
// two things that cross the spaces, which the memo keeps apart:
//
//   - Korean compounds (word.compound): a Korean word ending its chunk with
//     nothing stripped joins the stem of the next word when only spaces lie
//     between. A piece remembers the stem its first word offers to a word
//     before it (piece.first), and the state it leaves (piece.last,
//     piece.spaceOnly), the state of eachWordAfter.
//   - Phrases (tokenizer.phrases), matched across words. A word that no
//     phrase knows ends every phrase under way, whatever they are
//     (phraseInert): the piece keeps an opEnd for it. Any other word is
//     kept whole, as a phraseWord that the matcher reads each time.
//
// TestPieceTermsMatchEachIndexTerm holds the memo to eachIndexTerm.

// piece is what the analyser learnt of one piece of text.
type piece struct {
	text [2]int32 // start and end of its text in pieceTable.text
	ops  [2]int32 // start and end of its ops in analyser.ops
	// first is the stem of the piece's first word when that word would
	// join a Korean word before it (only spaces before it in the piece,
	// and it is a Korean word with a term); noRunes otherwise.
	first runeSpan
	// last and spaceOnly are the state of Korean compounds that the piece
	// leaves (see eachWordAfter), last noRunes for none. A piece without
	// words (words false) leaves the state as it found it, except that a
	// separator in it (spaceOnly false) ends the spaces.
	last      runeSpan
	spaceOnly bool
	words     bool
	// after and compound remember the last compound that the piece's
	// first word made: with the piece kept at after-1, the compound term
	// has the number compound. Texts repeat such pairs of words ("로드
	// 밸런서").
	after, compound int32
}

// pieceTable finds the pieces that the analyser keeps by their text. It is
// a hash table with open addressing, like termTable, whose memory holds no
// pointers: a Go map of the pieces, with a string per piece, cost twice
// its time in a build of 10,000 cases, as its probes read three places of
// memory, and the collector scanned it.
type pieceTable struct {
	seed  maphash.Seed
	slots []uint64 // hash<<32 | place in list + 1, or 0 for a free slot; the length is a power of two
	list  []piece
	text  []byte // the texts of the pieces, one after another
}

// hash is the hash of p that find and add take, of which they use the
// upper half.
func (pt *pieceTable) hash(p string) uint64 {
	if pt.slots == nil {
		pt.seed = maphash.MakeSeed()
		pt.slots = make([]uint64, 1024)
	}
	return maphash.String(pt.seed, p)
}

// find returns the place of piece p, whose hash is h, in pt.list, or -1.
func (pt *pieceTable) find(p string, h uint64) int32 {
	mask := uint64(len(pt.slots) - 1)
	for i := h >> 32 & mask; ; i = (i + 1) & mask {
		s := pt.slots[i]
		if s == 0 {
			return -1
		}
		if uint32(s>>32) == uint32(h>>32) {
			k := int32(s) - 1
			if t := pt.list[k].text; string(pt.text[t[0]:t[1]]) == p {
				return k
			}
		}
	}
}

// add keeps piece e as the text p, whose hash is h, and returns its place.
func (pt *pieceTable) add(p string, h uint64, e piece) int32 {
	if 2*len(pt.list) >= len(pt.slots) {
		old := pt.slots
		pt.slots = make([]uint64, 2*len(old))
		for _, s := range old {
			if s != 0 {
				pt.put(s)
			}
		}
	}
	k := int32(len(pt.list))
	e.text = [2]int32{int32(len(pt.text)), int32(len(pt.text) + len(p))}
	pt.text = append(pt.text, p...)
	pt.list = append(pt.list, e)
	pt.put(h>>32<<32 | uint64(k+1))
	return k
}

// put puts slot s, hash<<32 | place + 1, in the first free slot from its hash.
func (pt *pieceTable) put(s uint64) {
	mask := uint64(len(pt.slots) - 1)
	i := s >> 32 & mask
	for pt.slots[i] != 0 {
		i = (i + 1) & mask
	}
	pt.slots[i] = s
}

// runeSpan is where runes are in analyser.runes; start is -1 for no runes
// at all (a nil slice), which is not the same as none (a Korean word's
// stem of no syllable).
type runeSpan struct{ start, end int32 }

var noRunes = runeSpan{-1, -1}

// phraseWord is a word of a piece that the phrase matcher must read, as
// phraseStep takes it: its term (noRunes for a stop word) and its key.
type phraseWord struct{ term, key runeSpan }

// The ops of a piece, one per uint32: a term, its number<<1 | 1 when it is
// a word as written (see eachIndexTerm), or one of these.
const (
	opPhrase = 1 << 31 // | k: the phrase matcher reads phraseWords[k]
	opEnd    = 1<<32 - 1
)

// joinAny is the stem of a Korean word that the analyser puts before every
// piece it learns, so that the piece's first word says, by its compound,
// whether it joins such a word.
var joinAny = []rune{}

// pieceTerms hands a.occur each term of text with weight w, as
// eachIndexTerm gives them, and returns their number.
func (a *analyser) pieceTerms(text string, w float32) int {
	if a.lastOnce == nil {
		// lastOnce is never nil, so that a stem copied into it is not
		// either, even one of no runes.
		a.lastOnce = make([]rune, 0, 16)
	}
	if len(a.tk.phrase) != len(phrases) {
		a.tk.phrase = make([]int, len(phrases))
	}
	a.tk.active = 0
	n := 0
	// last and spaceOnly are the state of Korean compounds between the
	// pieces (see eachWordAfter), and after the place of the piece that
	// left it + 1, or 0 when it is not kept.
	last, spaceOnly, after := []rune(nil), false, int32(0)
	var once piece
	for text != "" {
		p := text
		if i := strings.IndexByte(text, ' '); i >= 0 {
			p, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if p == "" {
			continue
		}
		h := a.pieces.hash(p)
		k := a.pieces.find(p, h)
		// A piece met for the first time is learnt for this once only,
		// and kept when it comes again: most pieces that differ are met
		// once (114,000 of the 147,000 above), and keeping them would
		// only cost memory while the pages render beside the analysis.
		ops, runes, phraseWords := len(a.ops), len(a.runes), len(a.phraseWords)
		e := &once
		if k < 0 {
			once = a.learn(p)
			if a.metBefore(h) {
				k = a.pieces.add(p, h, once)
			}
		}
		if k >= 0 {
			e = &a.pieces.list[k]
		}
		if !e.words {
			spaceOnly = spaceOnly && e.spaceOnly
			continue
		}
		if e.first.start >= 0 && spaceOnly && last != nil {
			if after == 0 || e.after != after {
				t := append(append(append(a.scratch[:0], compoundMark), last...), a.runesOf(e.first)...)
				a.scratch = t
				e.after, e.compound = after, a.number(t)
			}
			a.occur(e.compound, false, w)
			n++
		}
		for _, op := range a.ops[e.ops[0]:e.ops[1]] {
			switch {
			case op < opPhrase:
				a.occur(int32(op>>1), op&1 != 0, w)
				n++
			case op == opEnd:
				a.tk.active = 0
			default:
				pw := a.phraseWords[op&^opPhrase]
				a.tk.phraseStep(a.runesOf(pw.term), a.runesOf(pw.key), func(t []rune) {
					a.occur(a.number(t), false, w)
					n++
				})
			}
		}
		last, spaceOnly, after = a.runesOf(e.last), e.spaceOnly, k+1
		if k < 0 {
			// The stem that the next piece may join is all that the
			// text needs of this one further on.
			if last != nil {
				a.lastOnce = append(a.lastOnce[:0], last...)
				last = a.lastOnce[:len(last):len(last)]
			}
			a.ops, a.runes, a.phraseWords = a.ops[:ops], a.runes[:runes], a.phraseWords[:phraseWords]
		}
	}
	return n
}

// metBefore reports whether the piece whose hash is given may have been
// met before, and marks it met. It can be wrong in saying yes, which only keeps a piece met once.
func (a *analyser) metBefore(hash uint64) bool {
	if a.met == nil {
		a.met = make([]uint64, metBits/64)
	}
	h := hash % metBits
	m := a.met[h/64]&(1<<(h%64)) != 0
	a.met[h/64] |= 1 << (h % 64)
	return m
}

// metBits is the size of analyser.met, 512 KB: a part of 5,000 generated
// cases holds some 150,000 different pieces, of which it then keeps 3.5%
// that it met once.
const metBits = 1 << 22

// learn reads piece p with the tokenizer, remembers what it gives and
// returns it.
func (a *analyser) learn(p string) piece {
	e := piece{first: noRunes, last: noRunes}
	e.ops[0] = int32(len(a.ops))
	words := 0
	ended := false // whether the last op about phrases is an opEnd
	prev, spaceOnly := a.tk.eachWordAfter(p, joinAny, true, func(w *word) {
		if w.compound != nil {
			if words == 0 {
				e.first = a.keepRunes(w.term)
			} else {
				a.ops = append(a.ops, uint32(a.number(w.compound))<<1)
			}
		}
		words++
		key := w.term
		if key == nil {
			key = w.raw
		}
		switch {
		case w.hangul || phraseInert(w.term, key):
			if !ended {
				a.ops = append(a.ops, opEnd)
				ended = true
			}
		default:
			a.ops = append(a.ops, opPhrase|uint32(len(a.phraseWords)))
			a.phraseWords = append(a.phraseWords, phraseWord{a.keepRunes(w.term), a.keepRunes(key)})
			ended = false
		}
		if w.term == nil {
			return
		}
		op := uint32(a.number(w.term)) << 1
		if !w.hangul || !w.ended || w.noun {
			op |= 1
		}
		a.ops = append(a.ops, op)
		for _, t := range w.parts {
			a.ops = append(a.ops, uint32(a.number(t))<<1)
		}
		for _, t := range w.alt {
			a.ops = append(a.ops, uint32(a.number(t))<<1)
		}
	})
	e.ops[1] = int32(len(a.ops))
	e.words, e.spaceOnly = words > 0, spaceOnly
	if words > 0 {
		e.last = a.keepRunes(prev)
	}
	return e
}

// keepRunes copies rs into a.runes.
func (a *analyser) keepRunes(rs []rune) runeSpan {
	if rs == nil {
		return noRunes
	}
	start := len(a.runes)
	a.runes = append(a.runes, rs...)
	return runeSpan{int32(start), int32(len(a.runes))}
}

// runesOf returns the runes of s, nil for noRunes.
func (a *analyser) runesOf(s runeSpan) []rune {
	if s.start < 0 {
		return nil
	}
	return a.runes[s.start:s.end:s.end]
}
