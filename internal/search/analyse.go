package search

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// analysed is a library analysed for its index: the documents in index
// order with every term's packed postings. The index build writes it out;
// the in-memory Engine answers queries from it.
type analysed struct {
	docs []Doc // newest first; a document's number is its place here
	// terms numbers the terms in order of first sight; order lists those
	// numbers by term.
	terms []string
	order []int32
	// Postings are kept packed, as varints of the gap from the previous
	// document and of twice the frequency (weights are multiples of one
	// half): a few bytes each instead of eight and the slack of a growing
	// slice, which at 100,000 cases is most of a gigabyte.
	postings [][]byte
	counts   []int32 // term number → number of postings
	word     []bool  // term number → seen as a word as written somewhere
	lengths  []float64
	avg      float64
}

// posting is one document of a term with its BM25 weight ×10, as the index
// stores it.
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

	// Analyse the documents in parallel, a batch at a time, and merge each
	// batch in document order so that every posting list comes out sorted
	// and only one batch of per-document term lists is alive at once.
	// Each worker numbers the terms it meets; the merge maps those numbers
	// to index-wide ones, looking a term's string up once per worker.
	const batch = 256
	workers := runtime.GOMAXPROCS(0)
	analysers := make([]analyser, workers)
	perDoc := make([][]termTF, batch)
	owner := make([]int, batch) // which analyser numbered perDoc's terms
	ix := &analysed{docs: docs, lengths: make([]float64, len(docs))}
	var lastDoc []int32 // index-wide term number → its last document
	numbers := map[string]int32{}
	total := 0.0
	for start := 0; start < len(docs); start += batch {
		end := min(start+batch, len(docs))
		var wg sync.WaitGroup
		next := make(chan int)
		for w := range analysers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				a := &analysers[w]
				for i := range next {
					perDoc[i-start], ix.lengths[i] = a.docTerms(&docs[i], labels)
					owner[i-start] = w
				}
			}()
		}
		for i := start; i < end; i++ {
			next <- i
		}
		close(next)
		wg.Wait()
		for w := range analysers {
			a := &analysers[w]
			for len(a.global) < len(a.terms) {
				a.global = append(a.global, -1)
			}
		}
		for i := start; i < end; i++ {
			total += ix.lengths[i]
			a := &analysers[owner[i-start]]
			for _, t := range perDoc[i-start] {
				n := a.global[t.term]
				if n < 0 {
					s := a.terms[t.term]
					var ok bool
					if n, ok = numbers[s]; !ok {
						n = int32(len(ix.terms))
						numbers[s] = n
						ix.terms = append(ix.terms, s)
						ix.postings = append(ix.postings, nil)
						ix.counts = append(ix.counts, 0)
						ix.word = append(ix.word, false)
						lastDoc = append(lastDoc, 0)
					}
					a.global[t.term] = n
				}
				if a.word[t.term] {
					ix.word[n] = true
				}
				ix.postings[n] = binary.AppendUvarint(ix.postings[n], uint64(int32(i)-lastDoc[n]))
				ix.postings[n] = binary.AppendUvarint(ix.postings[n], uint64(t.tf*2))
				ix.counts[n]++
				lastDoc[n] = int32(i)
			}
			perDoc[i-start] = nil
		}
	}
	ix.finish(total)
	return ix, nil
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

// finish sets the average document length from the total and orders the
// terms alphabetically.
func (ix *analysed) finish(total float64) {
	ix.avg = 1.0
	if len(ix.docs) > 0 && total > 0 {
		ix.avg = total / float64(len(ix.docs))
	}
	ix.order = make([]int32, len(ix.terms))
	for k := range ix.order {
		ix.order[k] = int32(k)
	}
	slices.SortFunc(ix.order, func(a, b int32) int { return strings.Compare(ix.terms[a], ix.terms[b]) })
}

// walkTerms calls f with every term in order, its scored postings, the
// bucket it falls in and its entry in the bucket file, and returns the
// bucket boundaries. With release set it drops each term's packed postings
// once visited, so that a build does not hold them twice.
func (ix *analysed) walkTerms(cfg config, release bool, f func(bucket int, term string, ps []posting, entry []byte) error) ([]string, error) {
	n := float64(len(ix.docs))
	boundaries := []string{}
	var entry []byte
	var ps []posting
	var table scoreTable
	size := 0 // bytes of the current bucket so far, with its opening bracket
	prevLast := ""
	for _, id := range ix.order {
		t, packed := ix.terms[id], ix.postings[id]
		df := float64(ix.counts[id])
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		ps = ps[:0]
		doc := int32(0)
		for len(packed) > 0 {
			gap, m := binary.Uvarint(packed)
			tf2, m2 := binary.Uvarint(packed[m:])
			packed = packed[m+m2:]
			doc += int32(gap)
			tf := float64(tf2) / 2
			// The explicit float64 conversions keep the compiler from fusing
			// multiply-adds, whose rounding differs between machines.
			denom := tf + float64(bm25K1*float64(1-bm25B+float64(bm25B*ix.lengths[doc]/ix.avg)))
			s := float64(idf*tf*(bm25K1+1)) / denom
			q := int32(math.Round(s * scoreScale))
			if q < 1 {
				q = 1
			}
			ps = append(ps, posting{doc, q})
		}
		entry = append(entry[:0], '[')
		entry = appendJSONString(entry, t)
		entry = append(entry, ',')
		entry, table = appendPostings(entry, ps, table)
		entry = append(entry, ']')
		// The bucket so far, a comma, the entry and the closing bracket must
		// fit; a single entry larger than the bound gets a bucket of its own.
		if size > 0 && size+len(entry)+2 > cfg.bucketBytes {
			size = 0
		}
		if size == 0 {
			boundaries = append(boundaries, separator(prevLast, t, len(boundaries) == 0))
			size = 1
		} else {
			size++
		}
		size += len(entry)
		if err := f(len(boundaries)-1, t, ps, entry); err != nil {
			return nil, err
		}
		prevLast = t
		if release {
			ix.postings[id] = nil
		}
	}
	return boundaries, nil
}

// scoreScale is what a BM25 weight is multiplied by before it is rounded
// into a posting.
const scoreScale = 10
