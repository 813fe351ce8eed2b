package mcpserver

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"incidentlib/internal/cases"
	"incidentlib/internal/tokenize"
)

// Why a search hit matched, and what a query that found nothing (or only
// part of what it asked) may have meant, in words a reader knows: the
// query's words as typed, the case's fields by name, and suggestions that
// are words the library writes, never the index's stems ("kubernet").

// matchedWord is one query word a case has, and where.
type matchedWord struct {
	Word   string   `json:"word" jsonschema:"a word of the query, as typed"`
	Fields []string `json:"fields" jsonschema:"where the case has it: title, summary, org, text, or a facet argument (components, symptoms, …) whose term labels have it"`
}

// queryWord is a word of a query: as typed, and its search term.
type queryWord struct{ raw, term string }

func queryWords(q string) []queryWord {
	var out []queryWord
	tokenize.EachWord(q, func(term, raw []byte, _ bool) {
		if len(term) > 0 && !slices.ContainsFunc(out, func(w queryWord) bool { return w.term == string(term) }) {
			out = append(out, queryWord{string(raw), string(term)})
		}
	})
	return out
}

// termSet adds the search terms of texts to set.
func termSet(set map[string]bool, texts ...string) {
	for _, t := range texts {
		tokenize.EachWord(t, func(term, _ []byte, _ bool) {
			if len(term) > 0 && !set[string(term)] {
				set[string(term)] = true
			}
		})
	}
}

// whyMatched returns, for each query word that case c has, the fields
// that have it, in the order of the query. The last word also matches as
// the start of a term, as the search does while one types. It reads each
// field once and keeps no set of its terms: a search answers with up to
// 15 cases, each a few thousand words long.
func (m *model) whyMatched(words []queryWord, prefixLast bool, c *cases.Case) []matchedWord {
	found := make([][]string, len(words))
	// A text without any query term's start is not read word by word: a
	// stem may end otherwise than the word (polici, policy), so the test
	// leaves out the stem's last letter.
	starts := make([]string, len(words))
	for i, w := range words {
		starts[i] = w.term
		if n := len(w.term); n > 3 && w.term[n-1] < utf8.RuneSelf {
			starts[i] = w.term[:n-1]
		}
	}
	look := func(field string, texts ...string) {
		for _, t := range texts {
			lower := strings.ToLower(t)
			if !slices.ContainsFunc(starts, func(s string) bool { return strings.Contains(lower, s) }) {
				continue
			}
			tokenize.EachWord(t, func(term, _ []byte, _ bool) {
				if len(term) == 0 {
					return
				}
				for i, w := range words {
					hit := string(term) == w.term || (prefixLast && i == len(words)-1 && utf8.RuneCountInString(w.term) >= 2 && strings.HasPrefix(string(term), w.term))
					if hit && !slices.Contains(found[i], field) {
						found[i] = append(found[i], field)
					}
				}
			})
		}
	}
	look("title", c.Title.En, c.Title.Ko)
	look("summary", c.Summary.En, c.Summary.Ko)
	look("org", c.Org, c.OrgKo, c.OrgAlias)
	look("text", caseBody(c)...)
	c.EachTerm(func(f *cases.Facet, id string) {
		if f.Shows(cases.InSearch) && f.HasTopic(id) && f != cases.Orgs {
			l := m.labels[f.Name][id]
			look(f.Arg(), l[0], l[1])
		}
	})
	var out []matchedWord
	for i, w := range words {
		if len(found[i]) > 0 {
			out = append(out, matchedWord{Word: w.raw, Fields: found[i]})
		}
	}
	return out
}

// caseBody is the case's other texts, as the search indexes them.
func caseBody(c *cases.Case) []string {
	var out []string
	add := func(b cases.Bilingual) { out = append(out, b.En, b.Ko) }
	add(c.SymptomsText)
	add(c.Trigger)
	add(c.Detection)
	if c.Lessons != nil {
		add(*c.Lessons)
	}
	for _, b := range c.Remediation {
		add(b)
	}
	for _, b := range c.ActionItems {
		add(b)
	}
	return out
}

// libraryWords are the words of the library's titles, summaries and term
// labels, made on first use: an English word as written (lower case), a
// Korean one without its particle, with how often each occurs, by first
// letter. Titles and summaries name what a case is about, and reading
// them is a tenth of reading every text (at 10,000 cases, a second rather
// than ten on a busy machine).
type libraryWords struct {
	once    sync.Once
	count   map[string]int
	byFirst map[rune][]string
}

func (m *model) libraryWords() *libraryWords {
	m.words.once.Do(func() {
		count := map[string]int{}
		add := func(t string) {
			tokenize.EachWord(t, func(term, raw []byte, hangul bool) {
				w := raw
				if hangul {
					w = term
				}
				if len(term) > 0 && utf8.RuneCount(w) >= 2 && !hasDigit(w) {
					count[string(w)]++
				}
			})
		}
		for _, c := range m.lib.Cases {
			add(c.Title.En)
			add(c.Title.Ko)
			add(c.Summary.En)
			add(c.Summary.Ko)
		}
		for _, byID := range m.labels {
			for _, l := range byID {
				add(l[0])
				add(l[1])
			}
		}
		byFirst := map[rune][]string{}
		for w := range count {
			r, _ := utf8.DecodeRuneInString(w)
			byFirst[r] = append(byFirst[r], w)
		}
		for _, ws := range byFirst {
			slices.Sort(ws)
		}
		m.words.count, m.words.byFirst = count, byFirst
	})
	return &m.words
}

func hasDigit(b []byte) bool {
	return slices.ContainsFunc(b, func(c byte) bool { return '0' <= c && c <= '9' })
}

// nearestWord is the library's word closest to w (same first letter, at
// most a third of its letters changed), the most frequent of equals, or "".
func (m *model) nearestWord(w string) string {
	w = strings.ToLower(w)
	first, _ := utf8.DecodeRuneInString(w)
	n := utf8.RuneCountInString(w)
	limit := min(n/3+1, 3)
	words := m.libraryWords()
	best, bestD, bestN := "", limit+1, 0
	for _, cand := range words.byFirst[first] {
		cn := utf8.RuneCountInString(cand)
		if cn > n+limit || n > cn+limit || cand == w {
			continue
		}
		d, k := cases.EditDistance(w, cand), words.count[cand]
		if d < bestD || d == bestD && k > bestN {
			best, bestD, bestN = cand, d, k
		}
	}
	return best
}

// suggest returns the query with each word that finds no case alone
// replaced by the library's nearest word, or "" when there is none.
func (m *model) suggest(q string) string {
	var out []string
	changed := false
	for _, w := range strings.Fields(q) {
		qw := queryWords(w)
		if len(qw) > 0 && m.engine.Search(w+" ", nil).Total == 0 {
			key := strings.ToLower(w)
			if hasHangul(w) {
				key = qw[0].term // without its particle
			}
			if s := m.nearestWord(key); s != "" {
				w, changed = s, true
			}
		}
		out = append(out, w)
	}
	if !changed {
		return ""
	}
	return strings.Join(out, " ")
}
