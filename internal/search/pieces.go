package search

import (
	"incidentlib/internal/tokenize"

	"encoding/binary"
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
//     before it (first, below), and the state it leaves (last and
//     recSpaceOnly), the state of tokenize.Tokenizer.EachWordAfter.
//   - Phrases (tokenizer.phrases), matched across words. A word that no
//     phrase knows ends every phrase under way, whatever they are
//     (phraseInert): the piece keeps an opEnd for it. Any other word is
//     kept whole, as a phraseWord that the matcher reads each time.
//
// TestPieceTermsMatchEachIndexTerm holds the memo to eachIndexTerm.

// A piece is kept as a record, a head of recHead bytes, the piece's text
// and its ops, in one place of memory, which a look-up reads once:
//
//	0  the length of its text, | recWords when it has words, | recSpaceOnly
//	   when nothing but spaces follows its last chunk (without words:
//	   when it holds nothing but spaces)
//	4  the number of its ops, 4 bytes each
//	8  first, the stem of its first word when that word would join a
//	   Korean word before it (only spaces before it in the piece, and it
//	   is a Korean word with a term); noRunes otherwise
//	16 last, the stem of its last word when it is a Korean word that the
//	   next may join (see tokenize.Tokenizer.EachWordAfter); noRunes otherwise
//	24 after and compound: with the piece kept at after-1 before it, the
//	   compound its first word made has the number compound. Texts repeat
//	   such pairs of words ("로드 밸런서").
//
// All numbers are little-endian uint32s, spans two each. A piece without
// words leaves the state of compounds as it found it, except that a
// separator in it (no recSpaceOnly) ends the spaces.
const (
	recText, recOps, recFirst, recLast, recAfter, recHead = 0, 4, 8, 16, 24, 32

	recWords, recSpaceOnly = 1 << 31, 1 << 30
)

// pieceTable finds the pieces that the analyser keeps by their text. It is
// a hash table with open addressing, like termTable, whose memory holds no
// pointers. A Go map of the pieces, with a string per piece, took 0.75 s
// of a build of 10,000 cases, this table 0.35 s to 0.45 s: the map's
// probes read more places of memory, and the collector scanned it.
type pieceTable struct {
	seed  maphash.Seed
	slots []uint64 // hash>>32<<32 | place of the record in recs + 1, or 0 for a free slot; the length is a power of two
	recs  []byte   // the records, one after another
	n     int      // the number of records
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

// find returns the record of piece p, whose hash is h, or nil.
func (pt *pieceTable) find(p string, h uint64) []byte {
	mask := uint64(len(pt.slots) - 1)
	for i := h >> 32 & mask; ; i = (i + 1) & mask {
		s := pt.slots[i]
		if s == 0 {
			return nil
		}
		if uint32(s>>32) == uint32(h>>32) {
			r := pt.recs[uint32(s)-1:]
			if int(binary.LittleEndian.Uint32(r[recText:])&^(recWords|recSpaceOnly)) == len(p) && string(r[recHead:recHead+len(p)]) == p {
				return r
			}
		}
	}
}

// add keeps record r of a piece whose hash is h and returns the kept copy.
func (pt *pieceTable) add(h uint64, r []byte) []byte {
	if 2*pt.n >= len(pt.slots) {
		old := pt.slots
		pt.slots = make([]uint64, 2*len(old))
		for _, s := range old {
			if s != 0 {
				pt.put(s)
			}
		}
	}
	at := len(pt.recs)
	pt.recs = append(pt.recs, r...)
	pt.n++
	pt.put(h>>32<<32 | uint64(at+1))
	return pt.recs[at:len(pt.recs):len(pt.recs)]
}

// put puts slot s in the first free slot from its hash.
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
	a.tk.ResetPhrases()
	n := 0
	// last and spaceOnly are the state of Korean compounds between the
	// pieces (see tokenize.Tokenizer.EachWordAfter), and after the place
	// of the record of the piece that left it + 1, or 0 when it is not
	// kept.
	last, spaceOnly, after := []rune(nil), false, uint32(0)
	le := binary.LittleEndian
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
		r := a.pieces.find(p, h)
		// A piece met for the first time is learnt for this once only,
		// and kept when it comes again: most pieces that differ are met
		// once (114,000 of the 147,000 above), and keeping them would
		// only cost memory while the pages render beside the analysis.
		once := r == nil
		runes, phraseWords := len(a.runes), len(a.phraseWords)
		if once {
			r = a.learn(p)
			if a.metBefore(h) {
				r, once = a.pieces.add(h, r), false
			}
		}
		head := le.Uint32(r[recText:])
		if head&recWords == 0 {
			spaceOnly = spaceOnly && head&recSpaceOnly != 0
			continue
		}
		if first := int32(le.Uint32(r[recFirst:])); first >= 0 && spaceOnly && last != nil {
			if after == 0 || le.Uint32(r[recAfter:]) != after {
				t := append(append(append(a.scratch[:0], tokenize.CompoundMark), last...), a.runes[first:le.Uint32(r[recFirst+4:])]...)
				a.scratch = t
				le.PutUint32(r[recAfter:], after)
				le.PutUint32(r[recAfter+4:], uint32(a.number(t)))
			}
			a.occur(int32(le.Uint32(r[recAfter+4:])), false, w)
			n++
		}
		n += a.replay(r, head, w)
		last = a.runesOf(runeSpan{int32(le.Uint32(r[recLast:])), int32(le.Uint32(r[recLast+4:]))})
		spaceOnly = head&recSpaceOnly != 0
		after = 0
		if !once {
			after = uint32(len(a.pieces.recs)-len(r)) + 1
		} else {
			// The stem that the next piece may join is all that the
			// text needs of this one further on.
			if last != nil {
				a.lastOnce = append(a.lastOnce[:0], last...)
				last = a.lastOnce[:len(last):len(last)]
			}
			a.runes, a.phraseWords = a.runes[:runes], a.phraseWords[:phraseWords]
		}
	}
	return n
}

// replay counts the terms of the piece whose record is r, with weight w,
// as the record's operations say (see learn), and returns their number.
func (a *analyser) replay(r []byte, head uint32, w float32) int {
	le := binary.LittleEndian
	n := 0
	at := recHead + int(head&^(recWords|recSpaceOnly))
	for ops := r[at : at+4*int(le.Uint32(r[recOps:]))]; len(ops) >= 4; ops = ops[4:] {
		switch op := le.Uint32(ops); {
		case op < opPhrase:
			a.occur(int32(op>>1), op&1 != 0, w)
			n++
		case op == opEnd:
			a.tk.BreakPhrases()
		default:
			pw := a.phraseWords[op&^opPhrase]
			a.tk.PhraseStep(a.runesOf(pw.term), a.runesOf(pw.key), func(t []rune) {
				a.occur(a.number(t), false, w)
				n++
			})
		}
	}
	return n
}

// metBefore reports whether the piece whose hash is given may have been
// met before, and marks it met. It can be wrong in saying yes, which only
// keeps a piece met once.
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

// learn reads piece p with the tokenizer and returns its record, valid
// until the next call.
func (a *analyser) learn(p string) []byte {
	le := binary.LittleEndian
	r := append(a.rec[:0], make([]byte, recHead)...)
	r = append(r, p...)
	first := noRunes
	words, ops := 0, 0
	op := func(op uint32) {
		r = le.AppendUint32(r, op)
		ops++
	}
	ended := false // whether the last op about phrases is an opEnd
	prev, spaceOnly := a.tk.EachWordAfter(p, joinAny, true, func(w *tokenize.Word) {
		if w.Compound() != nil {
			if words == 0 {
				first = a.keepRunes(w.Term())
			} else {
				op(uint32(a.number(w.Compound())) << 1)
			}
		}
		words++
		key := w.Term()
		if key == nil {
			key = w.Raw()
		}
		switch {
		case w.Hangul() || tokenize.PhraseInert(w.Term(), key):
			if !ended {
				op(opEnd)
				ended = true
			}
		default:
			op(opPhrase | uint32(len(a.phraseWords)))
			a.phraseWords = append(a.phraseWords, phraseWord{a.keepRunes(w.Term()), a.keepRunes(key)})
			ended = false
		}
		if w.Term() == nil {
			return
		}
		t := uint32(a.number(w.Term())) << 1
		if !w.Hangul() || !w.Ended() || w.Noun() {
			t |= 1
		}
		op(t)
		for _, t := range w.Parts() {
			op(uint32(a.number(t)) << 1)
		}
		for _, t := range w.Alt() {
			op(uint32(a.number(t)) << 1)
		}
	})
	head := uint32(len(p))
	last := noRunes
	if words > 0 {
		head |= recWords
		last = a.keepRunes(prev)
	}
	if spaceOnly {
		head |= recSpaceOnly
	}
	le.PutUint32(r[recText:], head)
	le.PutUint32(r[recOps:], uint32(ops))
	le.PutUint32(r[recFirst:], uint32(first.start))
	le.PutUint32(r[recFirst+4:], uint32(first.end))
	le.PutUint32(r[recLast:], uint32(last.start))
	le.PutUint32(r[recLast+4:], uint32(last.end))
	a.rec = r
	return r
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
