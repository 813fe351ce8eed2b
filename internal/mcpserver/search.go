package mcpserver

import (
	"encoding/json"
	"fmt"
	"incidentlib/internal/markup"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/search"
	"incidentlib/internal/urls"
)

// caseItem is a case as lists and search results name it.
type caseItem struct {
	ID    string `json:"id" jsonschema:"the case id, such as IL-0495"`
	Title string `json:"title" jsonschema:"the case's title in the answer's language"`
	Org   string `json:"org" jsonschema:"the organisation that had the incident, named as the case's page in the answer's language names it"`
	// OrgSlug is the organisation's term id, as the orgs filter takes it.
	OrgSlug string `json:"org_slug" jsonschema:"the organisation's term id, as the orgs filter takes it"`
	Date    string `json:"date" jsonschema:"date of the incident (or of its report): YYYY-MM-DD, YYYY-MM or YYYY when only that is known; empty when the source gives no date"`
	// dateText is the date as the case's page in the answer's language
	// writes it, for the text of the answer; the structured content keeps
	// the date as data (an answer of 25 cases stays under 20 KB).
	dateText   string
	Impact     string   `json:"impact_level" jsonschema:"impact level term id: the worst effect on users (full-outage, partial-outage, degraded, exposure, near-miss); empty when the case gives none"`
	Severity   string   `json:"severity,omitempty" jsonschema:"the organisation's own severity term id, where its report gives one"`
	RootCause  string   `json:"root_cause" jsonschema:"root cause term id"`
	Components []string `json:"components" jsonschema:"component term ids"`
	URL        string   `json:"url" jsonschema:"the case's page in the answer's language"`
	Score      float64  `json:"score,omitempty" jsonschema:"search relevance (higher is better)"`
	// Matched says why a search hit matched.
	Matched []matchedWord `json:"matched,omitempty" jsonschema:"search only: the query's words the case has, and where"`
}

type termCases struct {
	ID    string `json:"id" jsonschema:"the term id"`
	Cases int    `json:"cases" jsonschema:"number of matching cases with this term"`
}

type facetCounts struct {
	Argument string      `json:"argument" jsonschema:"the filter argument"`
	Terms    []termCases `json:"terms" jsonschema:"matching cases per term id (the argument's own filter not applied)"`
}

type searchOutput struct {
	Query          string        `json:"query" jsonschema:"the query as searched, after any cut"`
	Lang           string        `json:"lang" jsonschema:"the language of the answer"`
	Total          int           `json:"total" jsonschema:"number of matching cases"`
	Partial        bool          `json:"partial" jsonschema:"no case matches every word; these match some"`
	Cases          []caseItem    `json:"cases" jsonschema:"the best cases, best first"`
	Counts         []facetCounts `json:"counts,omitempty" jsonschema:"with counts: true only: for each filter argument, matching cases per term id"`
	NextCursor     string        `json:"next_cursor,omitempty" jsonschema:"pass as cursor for the next results; absent after the last"`
	DidYouMean     string        `json:"did_you_mean,omitempty" jsonschema:"a corrected query, in whole words of the library, when nothing or only part of the query matched"`
	WithoutFilters int           `json:"without_filters,omitempty" jsonschema:"matches without the filters, when the filters left none"`
	Notes          []string      `json:"notes,omitempty" jsonschema:"what the server changed or ignored in the call"`
}

func (m *model) item(c *cases.Case, lang string) caseItem {
	title, _ := c.Title.In(lang)
	return caseItem{
		ID: c.ID, Title: title, Org: c.OrgName().Get(lang), OrgSlug: c.OrgSlug, Date: c.Date.String(), dateText: dateText(lang, c.Date),
		Impact: c.ImpactLevel, Severity: knownSeverity(c), RootCause: c.RootCause,
		Components: nonNil(c.Components),
		URL:        m.site.URL(urls.Case(lang, c.ID)),
	}
}

func nonNil(s []string) []string { return append([]string{}, s...) }

// dateText is a case's date as its page in lang writes it, or "" when the
// source gives none.
func dateText(lang string, d cases.Date) string {
	if !d.Known() {
		return ""
	}
	return l10n.Date(lang, d.Year, d.Month, d.Day)
}

// writeItems appends one line per case: id, title, organisation, date as
// the case's page writes it (or "date unknown" when the source gives none)
// and page URL. The title and the organisation are text
// (markup.MarkdownLine): no line, link or tag of the answer's Markdown comes
// from a case.
func writeItems(b *strings.Builder, c *call, items []caseItem) {
	for _, it := range items {
		date := it.dateText
		if date == "" {
			date = c.t("item.date_unknown")
		}
		fmt.Fprintf(b, "- %s · %s · %s · %s · %s\n", it.ID, markup.MarkdownLine(it.Title), markup.MarkdownLine(it.Org), date, it.URL)
	}
}

// cutQuery shortens a query to maxQueryBytes at a word boundary when there
// is one, so that a pasted log does not cost a search of every word in it.
func cutQuery(q string) (string, bool) {
	q = strings.ToValidUTF8(q, "")
	if len(q) <= maxQueryBytes {
		return q, false
	}
	cut := maxQueryBytes
	for cut > 0 && !utf8.RuneStart(q[cut]) {
		cut--
	}
	if i := strings.LastIndexAny(q[:cut], " \t\n"); i > maxQueryBytes/2 {
		cut = i
	}
	return q[:cut], true
}

func searchIncidents(m *model, c *call) (string, any, error) {
	out := searchOutput{Lang: c.lang}
	raw := c.str("query")
	q, cut := cutQuery(raw)
	if strings.TrimSpace(q) == "" {
		return "", nil, c.fail("err.query_empty")
	}
	if cut {
		c.note("note.query_cut", l10n.Number(len(raw)), l10n.Number(len(q)))
	}
	n := limit(c, searchDefault, searchMax)
	from, err := searchCursor(c)
	if err != nil {
		return "", nil, err
	}
	f, err := m.filter(c)
	if err != nil {
		return "", nil, err
	}
	res := m.engine.Search(q, f)
	if res.Truncated {
		c.note("note.words_cut", strconv.Itoa(search.MaxQueryWords))
	}
	out.Query, out.Total, out.Partial, out.WithoutFilters = q, res.Total, res.Partial, res.DropFilters
	if (out.Total == 0 && out.WithoutFilters == 0) || out.Partial {
		out.DidYouMean = m.suggest(q)
	}
	words, prefix := queryWords(q), !strings.HasSuffix(q, " ")
	out.Cases = []caseItem{}
	for _, h := range res.Hits[min(from, len(res.Hits)):min(from+n, len(res.Hits))] {
		cs := m.lib.Cases[h.Doc]
		it := m.item(cs, c.lang)
		it.Score = math.Round(h.Score*100) / 100 // two decimals: more would be noise to a reader
		it.Matched = m.whyMatched(words, prefix, cs)
		out.Cases = append(out.Cases, it)
	}
	if c.bool("counts") {
		out.Counts = m.counts(res)
	}
	text := fitSearch(c, &out, describe(c, f), from, len(res.Hits))
	return text, out, nil
}

// answerBudget bounds the text and structured content of a search answer
// together, below the 20 KB every answer keeps to, with room for the
// envelope and the resource links.
const answerBudget = 17 << 10

// fitSearch writes the answer, with fewer cases when the answer would be
// larger than answerBudget (long queries match in many fields, and counts
// add a line per facet): the cases left out come with the next cursor,
// and a note says so.
func fitSearch(c *call, out *searchOutput, filters string, from, total int) string {
	notes, asked := c.notes, len(out.Cases)
	for {
		out.NextCursor = ""
		if end := from + len(out.Cases); end < total {
			out.NextCursor = strconv.Itoa(end)
		}
		c.notes = notes
		if len(out.Cases) < asked {
			c.note("note.fit", l10n.Cases(c.lang, len(out.Cases)))
		}
		out.Notes = c.notes
		text := searchText(c, *out, filters, from)
		data, _ := json.Marshal(out)
		if len(text)+len(data) <= answerBudget || len(out.Cases) <= 1 {
			return text
		}
		out.Cases = out.Cases[:len(out.Cases)-1]
	}
}

// searchCursor reads search_incidents' cursor: the place of the first
// result to give, as next_cursor said it.
func searchCursor(c *call) (int, error) {
	arg := c.str("cursor")
	if arg == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 {
		return 0, c.fail("err.cursor", echo(arg))
	}
	return n, nil
}

// counts are the matches per term of each filter facet.
func (m *model) counts(res search.Result) []facetCounts {
	out := []facetCounts{}
	for _, facet := range cases.FacetNames() {
		counts, ok := res.Counts[facet]
		if !ok {
			continue
		}
		fc := facetCounts{Argument: argName(facet), Terms: []termCases{}}
		for _, id := range m.terms(facet) {
			if n := counts[id]; n > 0 {
				fc.Terms = append(fc.Terms, termCases{ID: id, Cases: n})
			}
		}
		out = append(out, fc)
	}
	return out
}

// searchText is search_incidents' answer as Markdown: a line per case and
// under it why it matched.
func searchText(c *call, out searchOutput, filters string, from int) string {
	var b strings.Builder
	quoted := strconv.Quote(out.Query)
	if out.Total == 0 {
		b.WriteString(c.t("search.none", quoted, filters))
		if out.WithoutFilters > 0 {
			b.WriteString(" " + c.tn("search.without_filters", out.WithoutFilters, l10n.Cases(c.lang, out.WithoutFilters)))
		}
	} else {
		b.WriteString(c.tn("search.head", out.Total, l10n.Cases(c.lang, out.Total), quoted, filters))
		if from > 0 {
			b.WriteString(" " + c.t("search.from", l10n.Range(c.lang, from+1, from+len(out.Cases), out.Total)))
		} else {
			b.WriteString(" " + c.t("search.best", l10n.Count(c.lang, len(out.Cases))))
		}
		if out.Partial {
			b.WriteString("\n" + c.t("search.partial"))
		}
	}
	if out.DidYouMean != "" {
		b.WriteString(" " + c.t("search.did_you_mean", strconv.Quote(out.DidYouMean)))
	}
	b.WriteByte('\n')
	for _, it := range out.Cases {
		writeItems(&b, c, []caseItem{it})
		if len(it.Matched) > 0 {
			b.WriteString("  " + c.t("search.matched", matchedText(c, it.Matched)) + "\n")
		}
	}
	if out.NextCursor != "" {
		b.WriteString("\n" + c.t("search.more", strconv.Quote(out.NextCursor)) + "\n")
	}
	writeCounts(&b, c, out.Counts)
	if len(out.Cases) > 0 {
		b.WriteString("\n" + c.t("search.whole_case") + "\n")
	}
	return b.String()
}

// matchedText writes matched words as "load, balancer (title,
// components); 404 (summary)": words found in the same fields together.
func matchedText(c *call, ws []matchedWord) string {
	var parts []string
	var words []string
	for i, w := range ws {
		words = append(words, markup.MarkdownLine(w.Word))
		if i+1 < len(ws) && slices.Equal(ws[i+1].Fields, w.Fields) {
			continue
		}
		names := make([]string, len(w.Fields))
		for k, f := range w.Fields {
			names[k] = fieldName(c.lang, f)
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", strings.Join(words, ", "), strings.Join(names, ", ")))
		words = nil
	}
	return strings.Join(parts, "; ")
}

// fieldName names a field of matchedWord in lang.
func fieldName(lang, f string) string {
	if fc := cases.FacetByName(strings.ReplaceAll(f, "_", "-")); fc != nil {
		return strings.ToLower(fc.Label.Get(lang))
	}
	switch f {
	case "title":
		return msgs.Get(lang, "field.title")
	case "summary":
		return msgs.Get(lang, "field.summary")
	case "org":
		return msgs.Get(lang, "field.org")
	}
	return msgs.Get(lang, "field.text")
}

// writeCounts writes counts asked for, one line a facet.
func writeCounts(b *strings.Builder, c *call, counts []facetCounts) {
	for i, fc := range counts {
		if i == 0 {
			b.WriteString("\n" + c.t("search.counts") + "\n")
		}
		parts := make([]string, len(fc.Terms))
		for k, t := range fc.Terms {
			parts[k] = fmt.Sprintf("%s %d", t.ID, t.Cases)
		}
		fmt.Fprintf(b, "- %s: %s\n", fc.Argument, strings.Join(parts, ", "))
	}
}

// knownSeverity is the case's severity, or "" where its report gives none.
func knownSeverity(c *cases.Case) string {
	if !cases.Severities.HasTopic(c.Severity) {
		return ""
	}
	return c.Severity
}
