package search

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"incidentlib/internal/cases"
)

// This file is the query side of the index in Go: it answers a query over
// documents held in memory exactly as static/js/search.js answers it over
// the built files (same terms, same weights, same ranking, counts and
// suggestions), for callers that run on a server, such as the MCP server.
// testdata/engine.json holds queries with the answers both must give.

// maxPrefixBuckets and prefixFactor mirror MAX_PREFIX_BUCKETS and
// PREFIX_FACTOR in search.js: a prefix that spans more index files than
// that is left out until the user types more, and a completion ranks below
// the word itself.
const (
	maxPrefixBuckets = 3
	prefixFactor     = 0.8
)

// Engine answers queries over documents held in memory.
type Engine struct {
	docs   []Doc    // as given to NewEngine
	orig   []int    // index number → place in docs
	terms  []string // sorted
	post   [][]posting
	idf    []float64 // term → its idf
	bucket []int     // term → its bucket in the built index
	bounds []string  // bucket boundaries, as the manifest lists them
	// suggest lists, by suggestKey, the terms a suggestion may offer, as
	// places in terms (the index's s/K files).
	suggest map[string][]int
	facets  []string
	// facetDocs maps facet → term id → index numbers of its documents, in
	// the order the built facet files list the terms.
	facetDocs map[string][]facetTermDocs
}

type facetTermDocs struct {
	id   string
	docs []int
}

// NewEngine indexes docs in memory with the same tokenizer and BM25 weights
// as the built index. It panics when two documents share an id, which the
// build reports as an error.
func NewEngine(docs []Doc, labels Labels) *Engine {
	e, err := newEngine(docs, labels, defaultConfig)
	if err != nil {
		panic(err)
	}
	return e
}

func newEngine(docs []Doc, labels Labels, cfg config) (*Engine, error) {
	ix, err := analyse(docs, labels)
	if err != nil {
		return nil, err
	}
	e := &Engine{docs: docs, orig: make([]int, len(docs)), facetDocs: map[string][]facetTermDocs{}}
	at := map[string]int{}
	for i := range docs {
		at[docs[i].ID] = i
	}
	for n := range ix.docs {
		e.orig[n] = at[ix.docs[n].ID]
	}
	e.bounds, err = ix.walkTerms(cfg, true, func(b int, _, t string, ps []posting, _ []byte) error {
		e.terms = append(e.terms, t)
		e.post = append(e.post, slices.Clone(ps))
		e.idf = append(e.idf, idf(len(ps), len(docs)))
		e.bucket = append(e.bucket, b)
		return nil
	})
	if err != nil {
		return nil, err
	}
	e.suggest = suggestLists(e.terms, func(i int) int { return len(e.post[i]) }, func(i int) bool { return ix.word[i] })
	e.facets = facetList(ix.docs)
	for _, f := range e.facets {
		fd := facetFile(f, ix.docs, labels[f])
		list := make([]facetTermDocs, len(fd.Terms))
		for k, t := range fd.Terms {
			abs, d := make([]int, len(t.Docs)), 0
			for i, gap := range t.Docs {
				d += gap
				abs[i] = d
			}
			list[k] = facetTermDocs{t.ID, abs}
		}
		e.facetDocs[f] = list
	}
	return e, nil
}

// Filter maps a facet URL name ("components", "root-causes", "orgs", …) to
// term ids. A document passes when it has any of a facet's terms, for every
// facet named; filters on a facet no document uses are ignored.
type Filter map[string][]string

// Hit is a matching document: its index in the docs given to NewEngine and
// its score.
type Hit struct {
	Doc   int
	Score float64
}

// Result is the answer to a query.
type Result struct {
	// Hits are every match, best first; equal scores go to the newer case,
	// then to the lower id.
	Hits  []Hit
	Total int
	// Partial is set when no document matches every word and Hits are the
	// documents that match some, those matching more words first.
	Partial bool
	// Counts gives, per facet and term, how many matches have the term, as
	// if that facet's own filter were off (so that it shows what choosing a
	// second term would add). Terms with no match are left out.
	Counts map[string]map[string]int
	// Truncated says that the query had more words than MaxQueryWords and
	// only the first ones were used.
	Truncated bool
	// DidYouMean is a corrected query when nothing matched, or "".
	DidYouMean string
	// DropFilters is the number of matches without the filters, when the
	// filters left none.
	DropFilters int
}

// Search runs a query as the search page does: the last word also matches
// as a prefix, and a blank query with no filters matches every case (the
// page shows their facet counts before anything is typed).
func (e *Engine) Search(text string, f Filter) Result {
	groups, raws, truncated := query(text, true)
	filtered := false
	for _, ids := range f {
		filtered = filtered || len(ids) > 0
	}
	scores := make([]map[int32]float64, len(groups))
	for k, g := range groups {
		scores[k] = e.scoreGroup(g)
	}
	hits, partial := combine(scores, len(e.orig), len(groups) == 0 && (filtered || strings.TrimSpace(text) == ""))
	unfiltered := len(hits)
	hits, counts := e.applyFilters(hits, f)
	res := Result{Total: len(hits), Partial: partial, Counts: counts, Hits: make([]Hit, len(hits)), Truncated: truncated}
	for k, h := range hits {
		res.Hits[k] = Hit{Doc: e.orig[h.doc], Score: h.score}
	}
	if res.Total == 0 && len(groups) > 0 {
		if filtered && unfiltered > 0 {
			res.DropFilters = unfiltered
		} else {
			res.DidYouMean = e.didYouMean(text, groups, raws, scores)
		}
	}
	return res
}

// find returns the place of term t in e.terms, or -1.
func (e *Engine) find(t string) int {
	i, ok := slices.BinarySearch(e.terms, t)
	if !ok {
		return -1
	}
	return i
}

// bucketOf returns the bucket whose range holds t, as the browser finds it
// from the manifest.
func (e *Engine) bucketOf(t string) int {
	return sort.Search(len(e.bounds), func(i int) bool { return e.bounds[i] > t }) - 1
}

// prefixBuckets counts the buckets holding terms that start with p.
func (e *Engine) prefixBuckets(p string) int {
	first := e.bucketOf(p)
	if first < 0 {
		return 0
	}
	n := 1
	for i := first + 1; i < len(e.bounds) && strings.HasPrefix(e.bounds[i], p); i++ {
		n++
	}
	return n
}

// scoreGroup mirrors scoreGroup in search.js: the best of an exact term, all
// of the group's bigrams (averaged) and prefix completions.
func (e *Engine) scoreGroup(g queryGroup) map[int32]float64 {
	best := map[int32]float64{}
	put := func(d int32, s float64) {
		if v, ok := best[d]; !ok || v < s {
			best[d] = s
		}
	}
	for _, t := range g.Any {
		if i := e.find(t); i >= 0 {
			for _, p := range e.post[i] {
				put(p.doc, e.weight(i, p))
			}
		}
	}
	if len(g.All) > 0 {
		lists := make([]int, len(g.All))
		ok := true
		for k, t := range g.All {
			i := e.find(t)
			if i < 0 {
				ok = false
				break
			}
			lists[k] = i
		}
		if ok {
			slices.SortStableFunc(lists, func(a, b int) int { return len(e.post[a]) - len(e.post[b]) })
			maps := make([]map[int32]float64, len(lists))
			for k, i := range lists[1:] {
				maps[k+1] = e.weightMap(i)
			}
		next:
			for _, p := range e.post[lists[0]] {
				sum := e.weight(lists[0], p)
				for _, m := range maps[1:] {
					v, ok := m[p.doc]
					if !ok {
						continue next
					}
					sum += v
				}
				put(p.doc, sum/float64(len(lists)))
			}
		}
	}
	if g.Prefix != "" && e.prefixBuckets(g.Prefix) <= maxPrefixBuckets {
		for i := sort.SearchStrings(e.terms, g.Prefix); i < len(e.terms) && strings.HasPrefix(e.terms[i], g.Prefix); i++ {
			f := prefixFactor
			if e.terms[i] == g.Prefix {
				f = 1
			}
			for _, p := range e.post[i] {
				put(p.doc, e.weight(i, p)*f)
			}
		}
	}
	return best
}

// weight is the score of posting p of term i: the term's idf times the
// posting's weight, as search.js computes it.
func (e *Engine) weight(i int, p posting) float64 {
	return e.idf[i] * float64(p.score) / scoreScale
}

func (e *Engine) weightMap(i int) map[int32]float64 {
	m := make(map[int32]float64, len(e.post[i]))
	for _, p := range e.post[i] {
		m[p.doc] = e.weight(i, p)
	}
	return m
}

type scored struct {
	doc     int32
	score   float64
	matched int
}

// combine mirrors combine in search.js: documents matching every group,
// summed, or when there are none, documents matching any group, those
// matching more groups first. Ties go to the lower document number.
func combine(groups []map[int32]float64, n int, all bool) ([]scored, bool) {
	var hits []scored
	if len(groups) == 0 {
		if all {
			for d := range n {
				hits = append(hits, scored{doc: int32(d)})
			}
		}
		return hits, false
	}
	order := slices.Clone(groups)
	slices.SortStableFunc(order, func(a, b map[int32]float64) int { return len(a) - len(b) })
next:
	for d, s := range order[0] {
		sum := s
		for _, o := range order[1:] {
			v, ok := o[d]
			if !ok {
				continue next
			}
			sum += v
		}
		hits = append(hits, scored{d, sum, len(order)})
	}
	partial := false
	if len(hits) == 0 && len(groups) > 1 {
		partial = true
		acc := map[int32]*scored{}
		for _, g := range groups {
			for d, s := range g {
				h := acc[d]
				if h == nil {
					h = &scored{doc: d}
					acc[d] = h
				}
				h.score += s
				h.matched++
			}
		}
		for _, h := range acc {
			hits = append(hits, *h)
		}
	}
	slices.SortFunc(hits, func(a, b scored) int {
		switch {
		case a.matched != b.matched:
			return b.matched - a.matched
		case a.score != b.score:
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return int(a.doc - b.doc)
	})
	return hits, partial
}

// applyFilters mirrors applyFilters in search.js.
func (e *Engine) applyFilters(hits []scored, f Filter) ([]scored, map[string]map[string]int) {
	n := len(e.orig)
	fails := make([]uint8, n)
	failed := make([]int, n)
	in := make([]bool, n)
	for _, h := range hits {
		in[h.doc] = true
	}
	for fi, name := range e.facets {
		want := f[name]
		if len(want) == 0 {
			continue
		}
		ok := make([]bool, n)
		for _, t := range e.facetDocs[name] {
			if slices.Contains(want, t.id) {
				for _, d := range t.docs {
					ok[d] = true
				}
			}
		}
		for d := range n {
			if in[d] && !ok[d] {
				fails[d]++
				failed[d] = fi
			}
		}
	}
	counts := map[string]map[string]int{}
	for fi, name := range e.facets {
		for _, t := range e.facetDocs[name] {
			c := 0
			for _, d := range t.docs {
				if in[d] && (fails[d] == 0 || fails[d] == 1 && failed[d] == fi) {
					c++
				}
			}
			if c > 0 {
				if counts[name] == nil {
					counts[name] = map[string]int{}
				}
				counts[name][t.id] = c
			}
		}
	}
	kept := hits[:0:0]
	for _, h := range hits {
		if fails[h.doc] == 0 {
			kept = append(kept, h)
		}
	}
	return kept, counts
}

// didYouMean mirrors suggest in search.js: the first word that matched
// nothing is replaced by the closest word of the whole index that starts
// with the same character (edit distance 1, or 2 for words of more than
// five characters; the most frequent, then the first in order, wins).
func (e *Engine) didYouMean(text string, groups []queryGroup, raws []string, scores []map[int32]float64) string {
	for k, g := range groups {
		if len(scores[k]) > 0 || len(g.Any) == 0 {
			continue
		}
		t := []rune(g.Any[0])
		limit := 1
		if len(t) > 5 {
			limit = 2
		}
		best, bestD, bestN := "", limit+1, 0
		for _, i := range e.suggest[suggestKey(g.Any[0])] {
			d := editDistance(t, []rune(e.terms[i]), limit)
			if d <= limit && (d < bestD || d == bestD && len(e.post[i]) > bestN) {
				best, bestD, bestN = e.terms[i], d, len(e.post[i])
			}
		}
		if best == "" {
			return ""
		}
		lower := strings.ToLower(norm.NFC.String(text))
		raw := raws[k]
		at := strings.Index(lower, raw)
		if at < 0 {
			return best
		}
		return strings.TrimSpace(lower[:at] + best + lower[at+len(raw):])
	}
	return ""
}

// suggestCap bounds the words of one s/C file: the most frequent are kept.
const suggestCap = 2000

// suggestKeys are the keys of suggestKey, each an s/K file of the index.
var suggestKeys = func() []string {
	var out []string
	for c := 'a'; c <= 'z'; c++ {
		out = append(out, string(c))
	}
	for i := range 19 {
		out = append(out, "h"+strconv.Itoa(i))
	}
	return append(out, "-")
}()

// suggestKey says which list of suggestions a word is in: its first letter
// when that is a to z, "h" and the initial consonant's number (0-18) when it
// is a Hangul syllable, "-" otherwise (never "_", which Jekyll hides). A typo seldom changes the first
// letter, or the first consonant of a Korean word.
func suggestKey(t string) string {
	r, _ := utf8.DecodeRuneInString(t)
	switch {
	case 'a' <= r && r <= 'z':
		return string(r)
	case r >= 0xac00 && r <= 0xd7a3:
		return "h" + strconv.Itoa(int(r-0xac00)/588)
	}
	return "-"
}

// suggestLists returns, by suggestKey, the places in terms (sorted) of the
// words a suggestion may offer: terms of two or more letters, no digits or
// compounds, that were seen as words as written (word: not only as a stem
// or a part of one); at most suggestCap per key, the most frequent (df), in
// the order of terms.
func suggestLists(terms []string, df func(int) int, word func(int) bool) map[string][]int {
	out := map[string][]int{}
	for i, t := range terms {
		// Most terms are no words (parts, compounds, stems met only
		// inside longer words): their strings, each a read of memory out
		// of the cache, are left unread.
		if !word(i) {
			continue
		}
		n, ok := 0, true
		for _, r := range t {
			n++
			if !unicode.IsLetter(r) {
				ok = false
				break
			}
		}
		if ok && n >= 2 {
			k := suggestKey(t)
			out[k] = append(out[k], i)
		}
	}
	for r, list := range out {
		if len(list) <= suggestCap {
			continue
		}
		keep := slices.Clone(list)
		slices.SortStableFunc(keep, func(a, b int) int { return df(b) - df(a) })
		keep = keep[:suggestCap]
		slices.Sort(keep)
		out[r] = keep
	}
	return out
}

// editDistance is the Levenshtein distance of a and b, or limit+1 when their
// lengths alone differ by more than limit (editDistance in search.js).
func editDistance(a, b []rune, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	return cases.EditDistance(string(a), string(b))
}
