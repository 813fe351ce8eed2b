// Package search owns the library's full-text search: the tokenizer shared
// with the browser (its twin is static/js/search.js), and the build of the
// sharded, static search index that the browser code reads.
//
// # Index layout
//
// Build writes every file under search/ as X.json, for fetch over HTTP. For
// the offline bundle it also writes X.js, a plain script that stores the
// same value in window.__ilsearch["X"], for pages opened from file:// where
// fetch is blocked; a site served over HTTP never reads those, so other
// builds leave them out. The files are:
//
//   - manifest: format version, document count, the number of term buckets,
//     the first term (shortened) of every group of buckets, the names of
//     the facets that have files, and the search filters (the facets the
//     page filters by, in order, with their names in both languages and
//     whether their terms are listed newest first). It stays small at any
//     size: a query reads it, then the group files of its terms.
//   - b/G: the first term (shortened) of every bucket of group G.
//   - t/N: term bucket N, [[term, postings], …] sorted by term. Buckets hold
//     consecutive ranges of the sorted term list and are cut at about
//     bucketBytes, so one term costs one small file and a prefix costs the
//     contiguous buckets its range covers. A term's postings are its
//     distinct scores and one code per document (see postings.go);
//     documents are numbered by date, newest first, and the score is a
//     BM25 weight ×10 computed at build time: a tenth is finer than ranking
//     needs, and every further digit would cost more bytes of postings.
//   - s/K: the words of the index that start with a Latin letter K, with a
//     Hangul syllable of initial consonant K (h0 … h18), or with anything
//     else (K = _), with their document counts, for "did you mean" when a
//     query finds nothing (see suggestLists). Every one of them is written,
//     empty or not, so that no query asks for a file that is not there.
//   - r/N: the display record of document N, for pages in either
//     language: a result costs its own record only, and a case costs one
//     file, not one per language.
//   - facets: the first terms of every facet with their labels and
//     document counts, which the search page's filter groups show before
//     anything is typed.
//   - f/FACET: every term of a facet with its labels, its document count and
//     its documents (delta coded), for filters and the counts of a result
//     set; the page reads one when its facet filters the results or when
//     the reader opens its group.
//
// One search document holds both languages of a case: English and Korean text
// share one term space, so a query in either language finds the case from
// either page. Controlled terms are indexed by their labels in both languages.
package search

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"incidentlib/internal/cases"
	"incidentlib/internal/urls"
)

// Doc is one case as the index needs it. Text fields are [English, Korean];
// Body is every other text of the case, in either language, as separate
// strings so that a caller can hand over the case's own strings instead of
// joining copies of them (at 100,000 cases that copy is a gigabyte).
type Doc struct {
	ID, Date            string
	Published           bool // Date is when the source was published, not when the incident happened
	Title, Summary, Org [2]string
	// OrgAlias is another spelling of the organisation that finds the case
	// (허브스팟 for HubSpot) but is never shown.
	OrgAlias string
	Body     []string
	Facets   map[string][]string // facet URL name → term ids
	URL      [2]string           // page path per language, relative to the site root, e.g. "en/cases/IL-0495/"
}

// Labels gives the English and Korean label of each facet term:
// facet → term id → [en, ko].
type Labels map[string]map[string][2]string

// Field weights: a word in the title or a controlled-term label says more
// about what a case is than the same word in the body.
const (
	weightTitle   = 4
	weightLabel   = 3
	weightOrg     = 2
	weightSummary = 1.5
	weightBody    = 1

	bm25K1 = 1.2
	bm25B  = 0.75
)

// config holds the sizes that tests shrink.
type config struct {
	bucketBytes  int // a term bucket is closed once it reaches this many bytes
	groupBuckets int // buckets per group file
	excerptRunes int
	scripts      bool // also write the X.js twin of every file, for file://
}

// Buckets are cut at 2 kB: postings are dense text (postings.go) that gzip
// shrinks little, so a bucket costs about what it weighs, and a query pays
// for the other terms of its buckets. At 1,000 cases 2 kB buckets cost the
// first query 1 kB less than 3 kB ones and 6 kB less than 8 kB ones; the
// manifest and group files they add stay under 1 kB at 10,000 cases.
var defaultConfig = config{bucketBytes: 2 << 10, groupBuckets: 64, excerptRunes: 320}

// Build computes the index of docs and hands each file to write, with paths
// under "search/"; write must not keep data after it returns, as Build
// reuses it. With scripts set (the offline bundle) every file also gets its
// X.js twin for pages opened from file://. Output depends only on the input
// (not its order), so two builds of the same cases are byte-identical.
func Build(docs []Doc, labels Labels, scripts bool, write func(path string, data []byte) error) error {
	cfg := defaultConfig
	cfg.scripts = scripts
	return build(docs, labels, write, cfg)
}

func build(in []Doc, labels Labels, write func(string, []byte) error, cfg config) error {
	docs, err := sortDocs(in)
	if err != nil {
		return err
	}
	out := &files{write: write, scripts: cfg.scripts}
	// The records and the facet files need only the documents, so they are
	// made while the text is analysed and the buckets written; every part
	// runs on all CPUs, and out takes their files one at a time.
	var wg sync.WaitGroup
	var recordsErr, facetsErr error
	var facetNames []string
	wg.Go(func() { recordsErr = writeRecords(docs, cfg, out) })
	wg.Go(func() { facetNames, facetsErr = writeFacets(docs, labels, out) })
	err = func() error {
		ix := analyseSorted(docs, labels)
		boundaries, err := writeBuckets(ix, cfg, out)
		if err != nil {
			return err
		}
		// The workers' term tables are done with; what is left needs only
		// the sorted terms and their counts.
		ix.parts, ix.local = nil, nil
		if err := writeSuggestions(ix, out); err != nil {
			return err
		}
		wg.Wait()
		if recordsErr != nil || facetsErr != nil {
			return errors.Join(recordsErr, facetsErr)
		}
		return writeManifest(len(ix.docs), boundaries, facetNames, cfg, out)
	}()
	if err != nil {
		out.fail(err)
	}
	wg.Wait()
	return out.firstErr()
}

// writeBuckets writes the term buckets, t/N, and returns the first term of
// each.
func writeBuckets(ix *analysed, cfg config, out *files) ([]string, error) {
	var bucket []byte
	nb := 0
	flush := func() error {
		if len(bucket) == 0 {
			return nil
		}
		bucket = append(bucket, ']')
		err := out.raw("t/"+strconv.Itoa(nb), bucket)
		nb++
		bucket = bucket[:0]
		return err
	}
	boundaries, err := ix.walkTerms(cfg, true, func(b int, _ string, _ []posting, entry []byte) error {
		if b != nb {
			if err := flush(); err != nil {
				return err
			}
		}
		if len(bucket) == 0 {
			bucket = append(bucket, '[')
		} else {
			bucket = append(bucket, ',')
		}
		bucket = append(bucket, entry...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return boundaries, flush()
}

// writeSuggestions writes the words of the whole index by first character,
// s/KEY, for completing a query as it is typed.
func writeSuggestions(ix *analysed, out *files) error {
	sorted := ix.terms
	lists := suggestLists(sorted, func(k int) int { return int(ix.counts[k]) }, func(k int) bool { return ix.word[k] })
	for _, key := range suggestKeys {
		entries := make([][2]any, len(lists[key]))
		for k, i := range lists[key] {
			entries[k] = [2]any{sorted[i], ix.counts[i]}
		}
		if err := out.value("s/"+key, entries); err != nil {
			return err
		}
	}
	return nil
}

// writeRecords writes the display records, r/N: one file per case with
// what a result shows in either language, so that a result costs its own
// record and nothing else. The records are made by every CPU.
func writeRecords(docs []Doc, cfg config, out *files) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, runtime.GOMAXPROCS(0))
	for w := range errs {
		wg.Go(func() {
			for !out.failed() {
				i := int(next.Add(1) - 1)
				if i >= len(docs) {
					return
				}
				if err := out.value("r/"+strconv.Itoa(i), makeRecord(&docs[i], cfg.excerptRunes)); err != nil {
					errs[w] = err
					out.fail(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// writeFacets writes what the page shows before anything is typed (facets:
// every term with its labels and count) and, per facet, the documents of
// every term (f/FACET), which filters and the counts of a result set need.
// It returns the facets written, in order.
func writeFacets(docs []Doc, labels Labels, out *files) ([]string, error) {
	facetNames := facetList(docs)
	summary := make([]facetSummary, 0, len(facetNames))
	for _, f := range facetNames {
		fd := facetFile(f, docs, labels[f])
		sum := facetSummary{Facet: f, All: len(fd.Terms)}
		for _, t := range fd.Terms {
			sum.Terms = append(sum.Terms, facetSummaryTerm{ID: t.ID, Label: t.Label, Count: t.Count})
		}
		if cf := cases.FacetByName(f); cf != nil && cf.Order == cases.NewestFirst {
			// The page lists years newest first.
			slices.SortFunc(sum.Terms, func(a, b facetSummaryTerm) int { return strings.Compare(b.ID, a.ID) })
		}
		sum.Terms = sum.Terms[:min(len(sum.Terms), summaryTerms)]
		summary = append(summary, sum)
		if err := out.value("f/"+f, fd); err != nil {
			return nil, err
		}
	}
	return facetNames, out.value("facets", summary)
}

// writeManifest writes the manifest, which names the first bucket of every
// group of groupBuckets, and each group's file, b/N, which names the first
// term of each of its buckets.
func writeManifest(docs int, boundaries, facetNames []string, cfg config, out *files) error {
	var groups []string
	for g := 0; g*cfg.groupBuckets < len(boundaries); g++ {
		part := boundaries[g*cfg.groupBuckets : min((g+1)*cfg.groupBuckets, len(boundaries))]
		groups = append(groups, part[0])
		if err := out.value("b/"+strconv.Itoa(g), part); err != nil {
			return err
		}
	}
	if groups == nil {
		groups = []string{}
	}
	return out.value("manifest", manifest{
		Version: 2, Docs: docs, Buckets: len(boundaries), Group: cfg.groupBuckets, Groups: groups, Facets: facetNames,
		Filters: searchFilters(),
	})
}

// langs are the page languages, in the order of every [2]string.
var langs = [2]string{"en", "ko"}

// files hands index files to write, each as JSON and, when scripts is set,
// as the script that registers it. Several goroutines may use it at once;
// it calls write from one at a time, and after a failure not at all.
type files struct {
	write   func(string, []byte) error
	scripts bool
	mu      sync.Mutex
	js      []byte // the script of the last file, reused for the next
	stopped atomic.Bool
	firstMu sync.Mutex
	first   error
}

// fail stops further writes; the first error given is the build's.
func (fs *files) fail(err error) {
	fs.firstMu.Lock()
	if fs.first == nil {
		fs.first = err
	}
	fs.firstMu.Unlock()
	fs.stopped.Store(true)
}

func (fs *files) failed() bool { return fs.stopped.Load() }

func (fs *files) firstErr() error {
	fs.firstMu.Lock()
	defer fs.firstMu.Unlock()
	return fs.first
}

// value writes v as the index file name.
func (fs *files) value(name string, v any) error {
	data, err := marshal(v)
	if err != nil {
		return fmt.Errorf("search: %s: %w", name, err)
	}
	return fs.raw(name, data)
}

// raw writes data, JSON already, as the index file name.
func (fs *files) raw(name string, data []byte) error {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.failed() {
		return errStopped
	}
	if err := fs.write(urls.SearchFile(name+".json"), data); err != nil {
		fs.fail(err)
		return err
	}
	if !fs.scripts {
		return nil
	}
	js := append(fs.js[:0], "window.__ilsearch=window.__ilsearch||{};__ilsearch["...)
	js = append(append(append(js, quoteJSON(name)...), "]="...), data...)
	js = append(js, ";\n"...)
	fs.js = js
	if err := fs.write(urls.SearchFile(name+".js"), js); err != nil {
		fs.fail(err)
		return err
	}
	return nil
}

// errStopped is what a write returns after another one failed; the build
// reports the first failure.
var errStopped = errors.New("search: stopped after an earlier error")

type manifest struct {
	Version int      `json:"v"`
	Docs    int      `json:"docs"`
	Buckets int      `json:"buckets"` // how many term buckets
	Group   int      `json:"group"`   // buckets per group
	Groups  []string `json:"groups"`  // the first term (shortened) of each group
	Facets  []string `json:"facets"`
	// Filters are the facets the search page filters by, in the order it
	// lists them and reads them from its address, with the name of one
	// term of each in both languages: the facet table of package cases,
	// which search.js does not repeat.
	Filters []filter `json:"filters"`
}

type filter struct {
	Name  string    `json:"name"`
	Label [2]string `json:"l"`
	// Newest lists the terms by id, newest first (years), rather than by
	// their number of cases.
	Newest bool `json:"newest,omitempty"`
}

// searchFilters returns the facets of the table that search filters by.
func searchFilters() []filter {
	out := []filter{}
	for _, f := range cases.Facets {
		if f.Shows(cases.InSearch) {
			out = append(out, filter{f.Name, [2]string{f.One.En, f.One.Ko}, f.Order == cases.NewestFirst})
		}
	}
	return out
}

// facetSummary is a facet as the idle search page shows it: the first
// summaryTerms of its terms in the page's order, and how many it has in all
// (the page loads the facet's file for the others when asked to show all).
type facetSummary struct {
	Facet string             `json:"facet"`
	All   int                `json:"all"`
	Terms []facetSummaryTerm `json:"terms"`
}

// summaryTerms is FACET_SHOWN in search.js: how many terms of a facet the
// page shows before "Show all".
const summaryTerms = 8

type facetSummaryTerm struct {
	ID    string    `json:"id"`
	Label [2]string `json:"l"`
	Count int       `json:"n"`
}

// separator returns the shortest prefix of first that sorts after last, so
// that the manifest can name bucket boundaries in a few characters. The
// first bucket starts at "".
func separator(last, first string, isFirst bool) string {
	if isFirst {
		return ""
	}
	for i := range first {
		if i == 0 {
			continue
		}
		if p := first[:i]; p > last {
			return p
		}
	}
	return first
}

// An analyser finds the terms of documents for one worker of the build. It
// numbers every term it meets, so that a term's string is made once per
// worker instead of once per occurrence, and a document's terms come out
// without a map or a sort of their own.
type analyser struct {
	tk     tokenizer
	table  termTable
	terms  []string  // number → term
	tf     []float32 // number → weighted frequency in the document being analysed
	word   []bool    // number → seen as a word as written (see eachIndexTerm)
	doc    []int32   // numbers of that document's terms, in order of first occurrence
	out    []termTF  // what docTerms returned last, reused
	facets []string
}

// termTF is a term of a document, by its number in the analyser that found
// it, with its field-weighted frequency.
type termTF struct {
	term int32
	tf   float32
}

// docTerms returns a document's terms with their field-weighted frequencies,
// in no particular order, and its length in terms. The list is valid until
// the next call.
func (a *analyser) docTerms(d *Doc, labels Labels) ([]termTF, float64) {
	length := 0
	add := func(text string, w float32) {
		a.tk.eachIndexTerm(text, func(t []rune, word bool) {
			id, isNew := a.table.number(t)
			if isNew {
				a.terms = append(a.terms, string(t))
				a.tf = append(a.tf, 0)
				a.word = append(a.word, false)
			}
			if word {
				a.word[id] = true
			}
			// Weights are positive, so a zero frequency means a first occurrence.
			if a.tf[id] == 0 {
				a.doc = append(a.doc, id)
			}
			a.tf[id] += w
			length++
		})
	}
	add(d.ID, weightTitle)
	for l := 0; l < 2; l++ {
		add(d.Title[l], weightTitle)
		add(d.Org[l], weightOrg)
		add(d.Summary[l], weightSummary)
	}
	add(d.OrgAlias, weightOrg)
	for _, b := range d.Body {
		add(b, weightBody)
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
				add(id, weightLabel)
				continue
			}
			add(lab[0], weightLabel)
			// Labels that read the same in both languages ("CDN") count once,
			// or such terms would outweigh the title.
			if lab[1] != lab[0] {
				add(lab[1], weightLabel)
			}
		}
	}
	out := a.out[:0]
	for _, id := range a.doc {
		out = append(out, termTF{id, a.tf[id]})
		a.tf[id] = 0
	}
	a.doc = a.doc[:0]
	a.out = out
	return out, float64(length)
}

// termTable numbers terms, given as runes, in order of first sight. It is a
// hash table with open addressing over the runes themselves: at some 1,500
// term occurrences per case, encoding each term to look it up in a Go map
// was most of the cost of the index build.
type termTable struct {
	slots  []int32  // term number + 1, or 0 for a free slot; the length is a power of two
	hashes []uint32 // term number → hash
	runes  []rune   // every term's runes, one after another
	ends   []int    // term number → end of its runes in runes
}

// number returns the number of term t, and whether t is new.
func (tt *termTable) number(t []rune) (int32, bool) {
	if 2*len(tt.ends) >= len(tt.slots) {
		tt.grow()
	}
	h := hashRunes(t)
	mask := uint32(len(tt.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		n := tt.slots[i] - 1
		if n < 0 {
			n = int32(len(tt.ends))
			tt.slots[i] = n + 1
			tt.hashes = append(tt.hashes, h)
			tt.runes = append(tt.runes, t...)
			tt.ends = append(tt.ends, len(tt.runes))
			return n, true
		}
		if tt.hashes[n] == h && slices.Equal(tt.term(n), t) {
			return n, false
		}
	}
}

func (tt *termTable) term(n int32) []rune {
	start := 0
	if n > 0 {
		start = tt.ends[n-1]
	}
	return tt.runes[start:tt.ends[n]]
}

// grow doubles the slots, keeping the table at most half full.
func (tt *termTable) grow() {
	tt.slots = make([]int32, max(1024, 2*len(tt.slots)))
	mask := uint32(len(tt.slots) - 1)
	for n, h := range tt.hashes {
		i := h & mask
		for tt.slots[i] != 0 {
			i = (i + 1) & mask
		}
		tt.slots[i] = int32(n) + 1
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

// record is what a result shows of a case, on a page of either language:
// the title, organisation, page and passage of the summary in both
// languages. A page shows its own language's, or the other one's (marked as
// such) where the case has none.
type record struct {
	ID      string    `json:"id"`
	Date    string    `json:"d"`
	Pub     bool      `json:"p,omitempty"` // the date is the source's publication date
	Title   [2]string `json:"t"`
	Org     [2]string `json:"o"`
	URL     [2]string `json:"u"`
	Excerpt [2]string `json:"x"`
}

func makeRecord(d *Doc, n int) record {
	r := record{ID: d.ID, Date: d.Date, Pub: d.Published, Title: d.Title, Org: d.Org, URL: d.URL}
	for k := range r.Excerpt {
		r.Excerpt[k] = excerpt(d.Summary[k], n)
	}
	return r
}

var (
	mdLink     = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	mdEmphasis = strings.NewReplacer("**", "", "`", "", "__", "")
)

// excerpt returns the start of the first paragraph as plain text, cut at a
// space near n characters.
func excerpt(s string, n int) string {
	if i := strings.Index(s, "\n\n"); i >= 0 {
		s = s[:i]
	}
	// Every link has "](" in it, and most summaries have none, which is
	// cheaper to find than to run the expression.
	if strings.Contains(s, "](") {
		s = mdLink.ReplaceAllString(s, "$1")
	}
	s = mdEmphasis.Replace(s)
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)[:n]
	cut := len(rs)
	for k := len(rs) - 1; k > n*2/3; k-- {
		if rs[k] == ' ' {
			cut = k
			break
		}
	}
	return strings.TrimRight(string(rs[:cut]), " ,.;:") + "…"
}

type facetTerm struct {
	ID    string    `json:"id"`
	Label [2]string `json:"l"`
	Count int       `json:"n"`
	Docs  []int     `json:"d"`
}

type facetData struct {
	Facet string      `json:"facet"`
	Terms []facetTerm `json:"terms"`
}

// facetList returns the facets the documents use: the known ones in page
// order, then any others by name.
func facetList(docs []Doc) []string {
	seen := map[string]bool{}
	for i := range docs {
		for f, ids := range docs[i].Facets {
			if len(ids) > 0 {
				seen[f] = true
			}
		}
	}
	var out []string
	for _, f := range cases.FacetNames() {
		if seen[f] {
			out = append(out, f)
			delete(seen, f)
		}
	}
	var rest []string
	for f := range seen {
		rest = append(rest, f)
	}
	sort.Strings(rest)
	return append(out, rest...)
}

func facetFile(f string, docs []Doc, labels map[string][2]string) facetData {
	byTerm := map[string][]int{}
	for i := range docs {
		seen := map[string]bool{}
		for _, id := range docs[i].Facets[f] {
			if !seen[id] {
				seen[id] = true
				byTerm[id] = append(byTerm[id], i)
			}
		}
	}
	out := facetData{Facet: f, Terms: []facetTerm{}}
	for id, ds := range byTerm {
		lab, ok := labels[id]
		if !ok && f == cases.Orgs.Name {
			// Organisations have no vocabulary; the cases name them.
			lab, ok = docs[ds[0]].Org, true
		}
		if !ok {
			lab = [2]string{id, id}
		}
		deltas := make([]int, len(ds))
		prev := 0
		for k, d := range ds {
			deltas[k] = d - prev
			prev = d
		}
		out.Terms = append(out.Terms, facetTerm{ID: id, Label: lab, Count: len(ds), Docs: deltas})
	}
	sort.Slice(out.Terms, func(i, j int) bool {
		a, b := out.Terms[i], out.Terms[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return a.ID < b.ID
	})
	return out
}

func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	// The data only ever reaches pages as text or through JSON.parse, so HTML
	// escaping would only cost bytes.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func quoteJSON(s string) string {
	b, _ := marshal(s)
	return string(b)
}

// appendJSONString appends s quoted as marshal quotes it. Index terms are
// letters and digits, which need no escapes, so it copies them directly and
// leaves anything else to marshal.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' {
				return append(b, quoteJSON(s)...)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		// marshal replaces invalid UTF-8 and escapes the line and paragraph
		// separators.
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			return append(b, quoteJSON(s)...)
		}
		i += size
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
