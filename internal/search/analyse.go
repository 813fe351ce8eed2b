package search

import (
	"incidentlib/internal/tokenize"

	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// analysed is a library analysed for its index: the documents in index
// order with every term's packed postings. The index build writes it out;
// the in-memory Engine answers queries from it.
type analysed struct {
	docs []Doc // newest first; a document's number is its place here
	// terms is every term, sorted; a term's number is its place here.
	terms []string
	// parts are what each worker found in its own range of documents, the
	// ranges in document order; local maps, per part, a term's number to
	// its number in the part, or -1 when the part's documents lack it.
	parts  []*part
	local  [][]int32
	counts []int32 // term number → number of postings
	word   []bool  // term number → seen as a word as written somewhere
	// lengths are the documents' lengths in terms of their text (see
	// docTerms), and refLen the length that BM25 normalises them by.
	lengths []float64
	refLen  float64
	norms   []float64 // by document, its lengthNorm
}

// part is one worker's share of the analysis: the terms of a contiguous
// range of documents, numbered by the worker's analyser, and their
// postings. Postings are kept packed, as varints of the gap from the
// previous document (the first gap counts from 0, so it is the document's
// number) and of twice the frequency (weights are multiples of one half): a
// few bytes each instead of eight and the slack of a growing slice, which
// at 100,000 cases is most of a gigabyte.
type part struct {
	a analyser
	// postings, counts and word are, by the term's place in sorted, the
	// term's postings, their number and whether it was seen as a word
	// (see eachIndexTerm): what the analyser's state was, once the
	// documents are read (see pack). The merge and the encoding read
	// them in that order, from one end to the other.
	postings [][]byte
	counts   []int32
	word     []bool
	sorted   []sortedTerm // the part's terms, sorted
}

// sortedTerm is a term of a part with its sortKey and its number in the
// part's analyser.
type sortedTerm struct {
	key  uint64
	term string
	n    int32
}

// posting is one document of a term with its weight in the document, as
// the index stores it: the term-frequency part of BM25 ×scoreScale (see
// termWeight), which a reader multiplies by the term's idf.
type posting struct {
	doc   int32
	score int32
}

// analyse sorts the documents into index order and finds their terms.
func analyse(in []Doc, labels Labels) (*analysed, error) {
	docs, err := sortDocs(in)
	if err != nil {
		return nil, err
	}
	return analyseSorted(docs, labels), nil
}

// maxParts bounds the number of parts, as the merge compares the heads of
// every part for each term.
const maxParts = 16

// analyseSorted finds the terms of documents already in index order. Each
// worker takes a contiguous range of documents and numbers the terms it
// meets on its own, so that nothing is shared while the text is read; the
// parts are then merged by term, which costs one comparison per term and
// part, and their postings stay where they are: the ranges are in document
// order, so a term's postings are its parts' lists one after the other.
func analyseSorted(docs []Doc, labels Labels) *analysed {
	ix := &analysed{docs: docs, lengths: make([]float64, len(docs))}
	// A part of fewer than a few dozen documents is not worth a goroutine.
	n := max(1, min(runtime.GOMAXPROCS(0), maxParts, len(docs)/32))
	ix.parts = make([]*part, n)
	var wg sync.WaitGroup
	for p := range n {
		wg.Go(func() {
			pt := &part{}
			for i := p * len(docs) / n; i < (p+1)*len(docs)/n; i++ {
				ix.lengths[i] = pt.add(&docs[i], int32(i), labels)
			}
			pt.sortTerms()
			pt.pack()
			ix.parts[p] = pt
		})
	}
	wg.Wait()
	ix.merge()
	// What is left of a part is its postings, which encode releases as it
	// goes: the terms are ix.terms now, their strings shared.
	for _, pt := range ix.parts {
		pt.a, pt.sorted, pt.counts, pt.word = analyser{}, nil, nil, nil
	}
	// Summed in document order, so that the average, and with it every
	// score, does not depend on the number of parts.
	total := 0.0
	for _, l := range ix.lengths {
		total += l
	}
	ix.refLen = 1.0
	if len(docs) > 0 && total > 0 {
		ix.refLen = referenceLength(total / float64(len(docs)))
	}
	ix.norms = make([]float64, len(docs))
	for i, l := range ix.lengths {
		ix.norms[i] = lengthNorm(l, ix.refLen)
	}
	return ix
}

// lengthSteps is how many reference lengths there are per doubling.
const lengthSteps = 8

// referenceLength is the average length of the documents rounded to one
// of lengthSteps steps per doubling (9% apart). BM25 divides a document's
// length by the average; the rounded average is as good for ranking, and it
// stays the same when a case is edited or added (the exact one moves with
// every case), so that the weight of a term in a case depends on that case
// alone and an edit rewrites only the index files of the terms it changed.
func referenceLength(avg float64) float64 {
	return math.Exp2(math.Round(math.Log2(avg)*lengthSteps) / lengthSteps)
}

// add analyses document i into the part and returns its length in terms.
func (pt *part) add(d *Doc, i int32, labels Labels) float64 {
	terms, length := pt.a.docTerms(d, labels)
	for _, t := range terms {
		st := &pt.a.state[t.term]
		p := binary.AppendUvarint(st.postings, uint64(i-st.lastDoc))
		p = binary.AppendUvarint(p, uint64(t.tf*2))
		// Storing the slice stores its pointer, which costs a write
		// barrier while the collector marks; the list moves only when
		// it grows, and otherwise only its length changes.
		if cap(p) != cap(st.postings) {
			st.postings = p
		} else {
			st.postings = st.postings[:len(p)]
		}
		st.count++
		st.lastDoc = i
	}
	return length
}

// sortTerms makes pt.sorted, the part's terms in order. It sorts the
// terms with their keys beside them, not their numbers by the terms they
// point to, and compares the keys first: most comparisons are then
// decided by the first eight bytes of the two terms, held in the slice,
// without a read of either string, which sits in a block of memory out
// of the cache.
func (pt *part) sortTerms() {
	pt.sorted = make([]sortedTerm, len(pt.a.terms))
	for k, t := range pt.a.terms {
		pt.sorted[k] = sortedTerm{sortKey(t), t, int32(k)}
	}
	slices.SortFunc(pt.sorted, func(a, b sortedTerm) int { return compareTerms(a.key, b.key, a.term, b.term) })
}

// sortKey is the first eight bytes of t as a big-endian number, padded
// with zeros: of two terms, the one with the smaller key sorts first, and
// only terms with the same key need their strings compared.
func sortKey(t string) uint64 {
	var b [8]byte
	copy(b[:], t)
	return binary.BigEndian.Uint64(b[:])
}

// compareTerms is strings.Compare(a, b) for terms whose sortKeys are ka
// and kb.
func compareTerms(ka, kb uint64, a, b string) int {
	if ka != kb {
		if ka < kb {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}

// packBlock is the size of the blocks that pack copies postings into.
const packBlock = 64 << 10

// pack copies the part's postings, in the order of its terms, into blocks
// of packBlock bytes, keeps their counts and which terms are words, and
// drops what only the reading of the text needed (the term table, the
// tokenizer's buffers, the state of every term). A list grown by append
// has a quarter of slack on average (half at 300 cases), and one
// allocation per term; in blocks laid out in term order, the walk over
// the terms that encodes them (walkTerms) frees a block as soon as it has
// passed it, so that the pages, rendered meanwhile, find the memory of
// the postings already written.
func (pt *part) pack() {
	n := len(pt.a.state)
	pt.postings, pt.counts, pt.word = make([][]byte, n), make([]int32, n), make([]bool, n)
	var block []byte
	for t, term := range pt.sorted {
		st := &pt.a.state[term.n]
		p := st.postings
		if len(p) > cap(block)-len(block) {
			block = make([]byte, 0, max(packBlock, len(p)))
		}
		start := len(block)
		block = append(block, p...)
		pt.postings[t] = block[start:len(block):len(block)]
		pt.counts[t], pt.word[t] = st.count, st.word
		st.postings = nil
	}
	pt.a.table, pt.a.tk, pt.a.state, pt.a.doc, pt.a.out, pt.a.facets = termTable{}, tokenize.Tokenizer{}, nil, nil, nil, nil
	pt.a.pieces, pt.a.rec, pt.a.runes, pt.a.phraseWords, pt.a.scratch, pt.a.lastOnce, pt.a.met = pieceTable{}, nil, nil, nil, nil, nil, nil
	pt.a.strings, pt.a.utf8 = nil, nil
}

// merge makes the sorted list of every part's terms. It compares the
// terms at the heads of the parts by their sortKeys first, as sortTerms
// does, and reads their strings only when the keys are equal.
func (ix *analysed) merge() {
	heads := make([]int, len(ix.parts))
	ix.local = make([][]int32, len(ix.parts))
	// There are at least as many terms as the largest part has, so the
	// lists start at that size rather than grow to it.
	most := 0
	for _, pt := range ix.parts {
		most = max(most, len(pt.sorted))
	}
	ix.terms = make([]string, 0, most)
	ix.counts, ix.word = make([]int32, 0, most), make([]bool, 0, most)
	for p := range ix.local {
		ix.local[p] = make([]int32, 0, most)
	}
	for {
		// The smallest term at the head of a part is the next term.
		var next *sortedTerm
		for p, pt := range ix.parts {
			if h := heads[p]; h < len(pt.sorted) {
				if t := &pt.sorted[h]; next == nil || compareTerms(t.key, next.key, t.term, next.term) < 0 {
					next = t
				}
			}
		}
		if next == nil {
			return
		}
		g := int32(len(ix.terms))
		ix.terms = append(ix.terms, next.term)
		ix.counts = append(ix.counts, 0)
		ix.word = append(ix.word, false)
		key, term := next.key, next.term
		for p, pt := range ix.parts {
			local := int32(-1)
			if h := heads[p]; h < len(pt.sorted) && pt.sorted[h].key == key && pt.sorted[h].term == term {
				local = int32(h)
				heads[p]++
				ix.counts[g] += pt.counts[local]
				ix.word[g] = ix.word[g] || pt.word[local]
			}
			ix.local[p] = append(ix.local[p], local)
		}
	}
}

// sortDocs returns a copy of the documents, newest first (the document
// number is the date tie-break at query time), and refuses a case given
// twice.
func sortDocs(in []Doc) ([]Doc, error) {
	docs := append([]Doc(nil), in...)
	slices.SortFunc(docs, func(a, b Doc) int {
		if c := strings.Compare(b.Date, a.Date); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	for i := 1; i < len(docs); i++ {
		if docs[i].ID == docs[i-1].ID {
			return nil, fmt.Errorf("search: case %s given twice", docs[i].ID)
		}
	}
	return docs, nil
}

// walkTerms calls f with every term in order, its scored postings, the
// bucket it falls in (its number and first boundary) and its entry in the
// bucket file, and returns the bucket boundaries. With release set it drops each term's packed postings
// once visited, so that a build does not hold them twice.
//
// The entries are made by every CPU, a chunk of terms at a time, a few
// chunks ahead of f; only cutting the buckets and f itself run in order.
// Every term costs what its postings cost, and nothing else.
func (ix *analysed) walkTerms(cfg config, release bool, f func(bucket int, first, term string, ps []posting, entry []byte) error) ([]string, error) {
	const chunk = 256
	nchunks := (len(ix.terms) + chunk - 1) / chunk
	workers := runtime.GOMAXPROCS(0)
	results := make([]chan *encoded, nchunks)
	for k := range results {
		results[k] = make(chan *encoded, 1)
	}
	// A worker takes a token before it encodes a chunk and the loop below
	// gives it back once the chunk is used, so that at most 2×workers
	// chunks are held at once. The chunks are taken in order, so the one
	// the loop waits for is always being made.
	tokens := make(chan struct{}, 2*workers)
	stop := make(chan struct{})
	var next atomic.Int64
	var pool sync.Pool
	var wg sync.WaitGroup
	for range min(workers, nchunks) {
		wg.Go(func() {
			var table scoreTable
			for {
				select {
				case tokens <- struct{}{}:
				case <-stop:
					return
				}
				k := int(next.Add(1) - 1)
				if k >= nchunks {
					return
				}
				e, _ := pool.Get().(*encoded)
				if e == nil {
					e = &encoded{}
				}
				table = ix.encode(e, k*chunk, min(len(ix.terms), (k+1)*chunk), release, table)
				results[k] <- e
			}
		})
	}
	defer wg.Wait()
	defer close(stop)

	boundaries := []string{}
	size := 0 // bytes of the current bucket so far, with its opening bracket
	prevLast := ""
	for k := range nchunks {
		e := <-results[k]
		for j := range e.ends {
			t := ix.terms[k*chunk+j]
			entry := e.entries[e.start(j):e.ends[j]]
			ps := e.ps[e.psStart(j):e.psEnds[j]]
			// The bucket so far, a comma, the entry and the closing bracket
			// must fit under bucketMax; a single entry larger than that gets
			// a bucket of its own.
			if cutBefore(size, len(entry)+2, cfg.bucketMin, cfg.bucketMax, cfg.bucketSpread, hashString(t)) {
				size = 0
			}
			if size == 0 {
				boundaries = append(boundaries, separator(prevLast, t, len(boundaries) == 0))
				size = 1
			} else {
				size++
			}
			size += len(entry)
			if err := f(len(boundaries)-1, boundaries[len(boundaries)-1], t, ps, entry); err != nil {
				return nil, err
			}
			prevLast = t
		}
		pool.Put(e)
		<-tokens
	}
	return boundaries, nil
}

// encoded holds the entries of a chunk of terms, one after another, and
// their scored postings.
type encoded struct {
	entries []byte
	ends    []int // term → end of its entry in entries
	ps      []posting
	psEnds  []int
}

func (e *encoded) start(j int) int {
	if j == 0 {
		return 0
	}
	return e.ends[j-1]
}

func (e *encoded) psStart(j int) int {
	if j == 0 {
		return 0
	}
	return e.psEnds[j-1]
}

// encode makes the entries of terms lo to hi into e.
func (ix *analysed) encode(e *encoded, lo, hi int, release bool, table scoreTable) scoreTable {
	e.entries, e.ends, e.ps, e.psEnds = e.entries[:0], e.ends[:0], e.ps[:0], e.psEnds[:0]
	for g := lo; g < hi; g++ {
		first := len(e.ps)
		step := weightStep(int(ix.counts[g]), len(ix.docs))
		for p, pt := range ix.parts {
			local := ix.local[p][g]
			if local < 0 {
				continue
			}
			packed := pt.postings[local]
			doc := int32(0)
			for len(packed) > 0 {
				gap, m := binary.Uvarint(packed)
				tf2, m2 := binary.Uvarint(packed[m:])
				packed = packed[m+m2:]
				doc += int32(gap)
				e.ps = append(e.ps, posting{doc, termWeight(float64(tf2)/2, ix.norms[doc], step)})
			}
			if release {
				pt.postings[local] = nil
			}
		}
		e.entries = append(e.entries, '[')
		e.entries = appendJSONString(e.entries, ix.terms[g])
		e.entries = append(e.entries, ',')
		e.entries, table = appendPostings(e.entries, e.ps[first:], table)
		e.entries = append(e.entries, ']')
		e.ends = append(e.ends, len(e.entries))
		e.psEnds = append(e.psEnds, len(e.ps))
	}
	return table
}

// termWeight is what a posting stores: the part of a BM25 weight that
// depends on the document, tf·(k1+1) / (tf + k1·(1−b+b·length/refLen)),
// ×scoreScale and rounded. The other part, the term's idf, depends on the
// number of documents and of the term's postings, which a reader has (see
// idf), so a case added or edited changes no other case's postings. norm
// is the document's lengthNorm, worked out once per document instead of
// once per posting.
//
// The weight is rounded to the nearest multiple of step (weightStep), then
// to a whole number; step is more than one for common terms only.
func termWeight(tf, norm, step float64) int32 {
	// The explicit float64 conversions keep the compiler from fusing
	// multiply-adds, whose rounding differs between machines.
	w := float64(tf*(bm25K1+1)) / (tf + norm) * scoreScale
	if step == 1 {
		// The same as below: w/1 is w, and a whole number rounds to itself.
		return max(int32(math.Round(w)), 1)
	}
	return max(int32(math.Round(float64(math.Round(w/step)*step))), 1)
}

// lengthNorm is k1·(1−b+b·length/refLen), the part of termWeight's
// denominator that depends on the document alone.
func lengthNorm(length, refLen float64) float64 {
	return float64(bm25K1 * float64(1-bm25B+float64(bm25B*length/refLen)))
}

// weightStep is what the weights of a term with df postings among n
// documents are rounded to: 1 (a tenth of a weight), or 1/idf when the
// idf is under 1, so that a score (idf × weight) is rounded to about a
// tenth whatever the term, as format 2's scores were. A common term then
// has as few distinct weights as it had scores ("load", in 92% of the
// generated cases, two), and its postings gzip as well; finer weights
// would only tell apart scores that ranking adds nothing to. The step
// depends on the number of documents too, so a case added may move the
// weights of the commonest terms a little.
func weightStep(df, n int) float64 {
	return max(1/idf(df, n), 1)
}

// scoreScale is what a weight is multiplied by before it is rounded into
// a posting. A tenth is finer than ranking needs (a weight lies between
// about 0.2 and 2.2), and a finer one would cost bytes of postings.
const scoreScale = 10

// idf is the inverse document frequency of a term with df postings among
// n documents; a term's score in a document is idf·q/scoreScale, for its
// posting q. search.js computes it the same way, from the manifest's
// document count.
func idf(df, n int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}
