package search

import (
	"incidentlib/internal/tokenize"

	"slices"
	"strings"
)

// An analyser finds the terms of documents for one worker of the build. It
// numbers every term it meets, so that a term's string is made once per
// worker instead of once per occurrence, and a document's terms come out
// without a map or a sort of their own.
type analyser struct {
	tk     tokenize.Tokenizer
	table  termTable
	terms  []string    // number → term
	state  []termState // number → what is known of the term so far
	doc    []int32     // numbers of that document's terms, in order of first occurrence
	out    []termTF    // what docTerms returned last, reused
	facets []string
	// pieces is what each piece of text read so far gives (see
	// pieceTerms), its stems and phrase words in runes and phraseWords.
	pieces      pieceTable
	rec         []byte // the record of the piece learnt last
	runes       []rune
	phraseWords []phraseWord
	scratch     []rune           // a compound being made
	lastOnce    []rune           // the stem a piece met once left to the next (see pieceTerms)
	met         []uint64         // a bit per hash of a piece: met before (see metBefore)
	strings     *strings.Builder // the block of termString
	utf8        []byte           // a term in UTF-8, for termString
}

// termState is what the analysis of a part keeps of a term as it reads
// the documents: all in one place, so that an occurrence of a term costs
// one read of memory that is not in the cache, not one per array.
type termState struct {
	postings []byte  // the part's postings of the term so far, packed (see part)
	lastDoc  int32   // the document of the last posting
	count    int32   // the number of postings
	tf       float32 // weighted frequency in the document being analysed
	word     bool    // seen as a word as written (see eachIndexTerm)
}

// termTF is a term of a document, by its number in the analyser that found
// it, with its field-weighted frequency.
type termTF struct {
	term int32
	tf   float32
}

// docTerms returns a document's terms with their field-weighted frequencies,
// in no particular order, and its length: the number of terms of its
// summary and body. BM25 normalises by the length of those long texts
// only; names (title, organisation, labels) are short in every case, and
// leaving them out means that editing a title changes the weights of the
// title's terms and of no other (BM25F does the same with a b of 0 for
// such fields). The list is valid until the next call.
func (a *analyser) docTerms(d *Doc, labels Labels) ([]termTF, float64) {
	length := 0
	add := func(text string, w float32, counted bool) {
		n := a.pieceTerms(text, w)
		if counted {
			length += n
		}
	}
	add(d.ID, weightTitle, false)
	for l := 0; l < 2; l++ {
		add(d.Title[l], weightTitle, false)
		add(d.Org[l], weightOrg, false)
		add(d.Summary[l], weightSummary, true)
	}
	add(d.OrgAlias, weightOrg, false)
	for _, s := range d.Synonyms {
		add(s, weightBody, false)
	}
	for _, b := range d.Body {
		add(b, weightBody, true)
	}
	a.facets = a.facets[:0]
	for f := range d.Facets {
		a.facets = append(a.facets, f)
	}
	slices.Sort(a.facets)
	for _, f := range a.facets {
		for _, id := range d.Facets[f] {
			lab, ok := labels[f][id]
			if !ok {
				add(id, weightLabel, false)
				continue
			}
			add(lab[0], weightLabel, false)
			// Labels that read the same in both languages ("CDN") count once,
			// or such terms would outweigh the title.
			if lab[1] != lab[0] {
				add(lab[1], weightLabel, false)
			}
		}
	}
	out := a.out[:0]
	for _, id := range a.doc {
		out = append(out, termTF{id, a.state[id].tf})
		a.state[id].tf = 0
	}
	a.doc = a.doc[:0]
	a.out = out
	return out, float64(length)
}

// number returns the number of term t, giving it the next one when t is new.
func (a *analyser) number(t []rune) int32 {
	id, isNew := a.table.number(t)
	if isNew {
		a.terms = append(a.terms, a.termString(t))
		a.state = append(a.state, termState{})
	}
	return id
}

// termString returns t as a string. The strings of an analyser's terms
// share blocks of termBlock bytes: a string of its own per term, some
// 120,000 of them per worker at 10,000 cases, cost a third of numbering
// the new terms, and a size class of memory each, most terms being a few
// bytes.
func (a *analyser) termString(t []rune) string {
	a.utf8 = tokenize.AppendUTF8(a.utf8[:0], t)
	if a.strings == nil || a.strings.Cap()-a.strings.Len() < len(a.utf8) {
		a.strings = new(strings.Builder)
		a.strings.Grow(max(termBlock, len(a.utf8)))
	}
	start := a.strings.Len()
	a.strings.Write(a.utf8)
	// A Builder only appends, so the strings it gave stay as they are.
	return a.strings.String()[start:]
}

// termBlock is the size of the blocks of termString.
const termBlock = 16 << 10

// occur counts an occurrence of term id, with weight w, in the document
// being analysed; word says whether the term is a word as written there.
func (a *analyser) occur(id int32, word bool, w float32) {
	st := &a.state[id]
	if word {
		st.word = true
	}
	// Weights are positive, so a zero frequency means a first occurrence.
	if st.tf == 0 {
		if d := append(a.doc, id); cap(d) == cap(a.doc) {
			// Only the length changed: no pointer to store, no write
			// barrier (see tokenize.Word).
			a.doc = a.doc[:len(d)]
		} else {
			a.doc = d
		}
	}
	st.tf += w
}

// termTable numbers terms, given as runes, in order of first sight. It is a
// hash table with open addressing over the runes themselves: at some 1,500
// term occurrences per case, encoding each term to look it up in a Go map
// was most of the cost of the index build. A slot holds the term's hash
// beside the place of its entry, and the entry holds the term's number and
// length beside its runes, so that a lookup reads two places of memory: in
// a table of a hundred thousand terms, each is a miss of the cache.
type termTable struct {
	slots   []uint64 // hash<<32 | place of the entry in entries + 1, or 0 for a free slot; the length is a power of two
	entries []rune   // per term: its number, its length and its runes
	n       int32    // the number of terms
}

// number returns the number of term t, and whether t is new.
func (tt *termTable) number(t []rune) (int32, bool) {
	if 2*int(tt.n) >= len(tt.slots) {
		tt.grow()
	}
	h := hashRunes(t)
	mask := uint32(len(tt.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := tt.slots[i]
		if s == 0 {
			n := tt.n
			tt.slots[i] = uint64(h)<<32 | uint64(len(tt.entries)+1)
			tt.entries = append(tt.entries, n, rune(len(t)))
			tt.entries = append(tt.entries, t...)
			tt.n++
			return n, true
		}
		if uint32(s>>32) == h {
			e := tt.entries[uint32(s)-1:]
			if int(e[1]) == len(t) && slices.Equal(e[2:2+len(t)], t) {
				return e[0], false
			}
		}
	}
}

// grow doubles the slots, keeping the table at most half full.
func (tt *termTable) grow() {
	old := tt.slots
	tt.slots = make([]uint64, max(1024, 2*len(old)))
	mask := uint32(len(tt.slots) - 1)
	for _, s := range old {
		if s == 0 {
			continue
		}
		i := uint32(s>>32) & mask
		for tt.slots[i] != 0 {
			i = (i + 1) & mask
		}
		tt.slots[i] = s
	}
}

// hashRunes is FNV-1a over the runes, with a final mix so that the low bits
// that pick a slot depend on every rune.
func hashRunes(t []rune) uint32 {
	h := uint32(2166136261)
	for _, r := range t {
		h = (h ^ uint32(r)) * 16777619
	}
	h ^= h >> 16
	h *= 0x85ebca6b
	return h ^ h>>13
}
