package search

import (
	"errors"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

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
				if err := out.value(recordPath(i), makeRecord(&docs[i], cfg.excerptRunes)); err != nil {
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

// langs are the page languages, in the order of every [2]string.
var langs = [2]string{"en", "ko"}

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
