// Package search owns the library's full-text search: the tokenizer shared
// with the browser (its counterpart is static/js/search.js), and the build of the
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
//   - manifest: format version (3), document count, the scale of the
//     postings' weights, the first boundary of every group of buckets, the
//     names of the facets that have files, the search filters (the facets
//     the page filters by, in order, with their names in both languages
//     and whether their terms are listed newest first), and the layout:
//     the path of every other file as a template (layout.go), which
//     search.js reads rather than knowing them. It stays small at any
//     size: a query reads it, then the group files of its terms. The paths
//     below are its templates.
//   - b/KEY: the first boundary (a term, shortened) of every bucket of a
//     group, named by the fileKey of the group's first boundary.
//   - t/KEY: a term bucket, [[term, postings], …] sorted by term, named by
//     the fileKey of its first boundary. Buckets hold consecutive ranges of
//     the sorted term list, of bucketMin to bucketMax bytes, cut where the
//     hash of a term says (cutBefore), so one term costs one small file, a
//     prefix costs the contiguous buckets its range covers, and an edit
//     changes the buckets of the terms it changed and no others. A term's
//     postings are its distinct weights and one code per document (see
//     postings.go); documents are numbered by date, newest first. A
//     weight is the document's part of BM25 (termWeight), which depends on
//     that document alone; the reader multiplies it by the term's idf
//     from the term's posting count and the manifest's document count.
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
	"errors"
	"sync"
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
	// Synonyms are the other Korean forms of the glossary's terms that the
	// case writes in one form (내쫓 for a case that writes 축출): they find
	// the case by either form, weigh as its body does, and are never shown.
	Synonyms []string
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
	// A bucket holds bucketMin to bucketMax bytes, unless one entry is
	// larger; between the two, a term starts a new bucket one time in
	// bucketSpread, by its hash (see cutBefore).
	bucketMin, bucketMax, bucketSpread int
	// A group lists groupMin to groupMax buckets, cut likewise.
	groupMin, groupMax, groupSpread int
	excerptRunes                    int
	scripts                         bool // also write the X.js script copy of every file, for file://
}

// Buckets hold 1.4 to 2 kB: postings are dense text (postings.go) that
// gzip shrinks little, so a bucket costs about what it weighs, and a query
// pays for the other terms of its buckets. Cut by the terms' hashes
// between the bounds, buckets are about as many as format 2's greedy 2 kB
// ones (7,471 at 10,000 generated cases, then 7,394) and lighter: gzipped,
// the bucket of a term of 1 to 5 postings costs 682 B (821 B), of 5 to 50
// 765 B (926 B), of 50 to 300 879 B (1,028 B), and of more 1,662 B
// (1,736 B). Groups hold 48 to 80 buckets, 62 on average, as narrow as
// their cuts allow: a query reads the group of each term, and wider bounds
// would make it likelier to hit a large one (the file of the group of a
// bucket averages 286 B gzipped at 10,000 cases, 277 B for format 2's
// groups of 64).
var defaultConfig = config{
	bucketMin: 1600, bucketMax: 2304, bucketSpread: 16,
	groupMin: 48, groupMax: 80, groupSpread: 16,
	excerptRunes: 320,
}

// Build computes the index of docs and hands each file to write, with paths
// under "search/"; write must not keep data after it returns, as Build
// reuses it. With scripts set (the offline bundle) every file also gets its
// X.js script copy for pages opened from file://. Output depends only on the input
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

// writeBuckets writes the term buckets, t/KEY, and returns the first term of
// each.
func writeBuckets(ix *analysed, cfg config, out *files) ([]string, error) {
	var bucket []byte
	nb, name := 0, ""
	flush := func() error {
		if len(bucket) == 0 {
			return nil
		}
		bucket = append(bucket, ']')
		err := out.raw(path(indexLayout.Buckets, fileKey(name)), bucket)
		nb++
		bucket = bucket[:0]
		return err
	}
	boundaries, err := ix.walkTerms(cfg, true, func(b int, first string, _ string, _ []posting, entry []byte) error {
		if b != nb {
			if err := flush(); err != nil {
				return err
			}
		}
		name = first
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
		if err := out.value(path(indexLayout.Suggestions, key), entries); err != nil {
			return err
		}
	}
	return nil
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
