package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/api"
	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/search"
	"incidentlib/internal/site"
	"incidentlib/internal/urls"
)

// Limits on what one call may ask for. A larger limit is capped, not
// refused, and the answer says so; a longer query is cut likewise.
const (
	searchDefault = 10
	searchMax     = 20
	listDefault   = 20
	listMax       = 25
	maxQueryBytes = 500
	// echoRunes is how much of a bad argument an error message repeats.
	echoRunes = 40
)

// caseURIPrefix starts the URI of every case resource.
const caseURIPrefix = "incidentlib://cases/"

func caseURI(id string) string { return caseURIPrefix + id }

// argName is the argument name of a facet (cases.Facet.Arg).
func argName(facet string) string { return cases.FacetByName(facet).Arg() }

// filterFacets are the facets that filter search_incidents and
// list_incidents, in the table's order.
func filterFacets() []*cases.Facet {
	var out []*cases.Facet
	for _, f := range cases.Facets {
		if f.Shows(cases.InSearch) {
			out = append(out, f)
		}
	}
	return out
}

// filterParams are the facet filters of search_incidents and
// list_incidents, one per facet of filterFacets: their input schemas and
// their parsing follow from these.
func filterParams() []param {
	var ps []param
	for _, f := range filterFacets() {
		ps = append(ps, param{name: f.Arg(), kind: kTerms, desc: f.FilterDoc + "; terms of one facet are ORed, facets ANDed"})
	}
	return ps
}

const langDesc = "language of the answer: en or ko; when absent, Korean for a query in Hangul and English otherwise"

// caseItem is a case as lists and search results name it.
type caseItem struct {
	ID         string   `json:"id" jsonschema:"the case id, such as IL-0495"`
	Title      string   `json:"title" jsonschema:"the case's title in the answer's language"`
	Org        string   `json:"org" jsonschema:"the organisation that had the incident"`
	Date       string   `json:"date" jsonschema:"date of the incident (or of its report): YYYY-MM-DD, YYYY-MM or YYYY when only that is known; empty when the source gives no date"`
	Severity   string   `json:"severity" jsonschema:"severity term id"`
	RootCause  string   `json:"root_cause" jsonschema:"root cause term id"`
	Components []string `json:"components" jsonschema:"component term ids"`
	URL        string   `json:"url" jsonschema:"the case's page in the answer's language"`
	Score      float64  `json:"score,omitempty" jsonschema:"search relevance (higher is better)"`
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
	Counts         []facetCounts `json:"counts" jsonschema:"for each filter argument, matching cases per term id"`
	DidYouMean     string        `json:"did_you_mean,omitempty" jsonschema:"a corrected query, when nothing matched"`
	WithoutFilters int           `json:"without_filters,omitempty" jsonschema:"matches without the filters, when the filters left none"`
	Notes          []string      `json:"notes,omitempty" jsonschema:"what the server changed or ignored in the call"`
}

type listOutput struct {
	Lang       string     `json:"lang" jsonschema:"the language of the answer"`
	Total      int        `json:"total" jsonschema:"number of cases that pass the filters"`
	Cases      []caseItem `json:"cases" jsonschema:"this page, newest first"`
	NextCursor string     `json:"next_cursor,omitempty" jsonschema:"pass as cursor for the next page; absent on the last page"`
	Notes      []string   `json:"notes,omitempty" jsonschema:"what the server changed or ignored in the call"`
}

type casePage struct {
	Lang  string `json:"lang" jsonschema:"en or ko"`
	Title string `json:"title" jsonschema:"the case's title in this language"`
	URL   string `json:"url" jsonschema:"the case's page in this language"`
}

// incidentOutput is a case's data; the text block carries its page.
type incidentOutput struct {
	ID           string     `json:"id" jsonschema:"the case id"`
	Org          string     `json:"org" jsonschema:"the organisation that had the incident"`
	Date         string     `json:"date" jsonschema:"date of the incident: YYYY-MM-DD, YYYY-MM or YYYY; empty when unknown"`
	Severity     string     `json:"severity" jsonschema:"severity term id"`
	RootCause    string     `json:"root_cause" jsonschema:"root cause term id"`
	Components   []string   `json:"components" jsonschema:"component term ids"`
	Symptoms     []string   `json:"symptoms" jsonschema:"symptom term ids"`
	Contributing []string   `json:"contributing" jsonschema:"contributing factor term ids"`
	Domains      []string   `json:"domains" jsonschema:"domain term ids"`
	Related      []string   `json:"related" jsonschema:"ids of the related cases its page lists, closest first"`
	Pages        []casePage `json:"pages" jsonschema:"the case's title and page in each language of the answer"`
	Resource     string     `json:"resource" jsonschema:"the case as an MCP resource, both languages"`
	Notes        []string   `json:"notes,omitempty" jsonschema:"what the server changed or ignored in the call"`
}

type termCount struct {
	ID    string `json:"id" jsonschema:"the term id"`
	Label string `json:"label" jsonschema:"the term's label in the answer's language"`
	Cases int    `json:"cases" jsonschema:"number of the topic's cases with this term"`
}

type topicStats struct {
	Components    []termCount `json:"components" jsonschema:"most common components"`
	RootCauses    []termCount `json:"root_causes" jsonschema:"most common root causes"`
	Contributing  []termCount `json:"contributing" jsonschema:"most common contributing factors"`
	Years         []termCount `json:"years" jsonschema:"cases per year, oldest first"`
	MedianDetect  *int        `json:"median_minutes_to_detect,omitempty" jsonschema:"median minutes to detect; absent when no case knows"`
	MedianResolve *int        `json:"median_minutes_to_resolve,omitempty" jsonschema:"median minutes to resolve; absent when no case knows"`
	KnownDetect   int         `json:"known_detect" jsonschema:"cases whose time to detect is known"`
	KnownResolve  int         `json:"known_resolve" jsonschema:"cases whose time to resolve is known"`
}

type topicOutput struct {
	Facet       string      `json:"facet" jsonschema:"the facet"`
	Argument    string      `json:"argument" jsonschema:"the filter argument of this facet in search_incidents and list_incidents"`
	Term        string      `json:"term" jsonschema:"the term id"`
	Lang        string      `json:"lang" jsonschema:"the language of the answer"`
	Label       string      `json:"label" jsonschema:"the term's label"`
	Description string      `json:"description,omitempty" jsonschema:"what the term means"`
	Intro       string      `json:"intro,omitempty" jsonschema:"the topic page's introduction, Markdown"`
	Count       int         `json:"count" jsonschema:"number of cases; 0 when none has the term"`
	URL         string      `json:"url,omitempty" jsonschema:"the topic page; absent when the term has no cases"`
	Stats       *topicStats `json:"stats,omitempty" jsonschema:"statistics of the topic's cases; absent when it has none"`
	Cases       []caseItem  `json:"cases" jsonschema:"the newest cases, as on the first page of the topic"`
	More        int         `json:"more" jsonschema:"cases not listed here; list_incidents with this facet's filter lists them all"`
	Notes       []string    `json:"notes,omitempty" jsonschema:"what the server changed or ignored in the call"`
}

type bothLangs struct {
	En string `json:"en" jsonschema:"in English"`
	Ko string `json:"ko" jsonschema:"in Korean"`
}

type vocabTerm struct {
	ID          string    `json:"id" jsonschema:"the term id, as the filters take it"`
	Label       bothLangs `json:"label" jsonschema:"the term's label in both languages"`
	Description string    `json:"description,omitempty" jsonschema:"what the term means, in the answer's language"`
	Cases       int       `json:"cases" jsonschema:"number of cases with this term"`
}

type vocabFacet struct {
	Facet    string      `json:"facet" jsonschema:"the facet, as get_topic takes it"`
	Argument string      `json:"argument" jsonschema:"the filter argument of this facet in search_incidents and list_incidents"`
	Name     bothLangs   `json:"name" jsonschema:"the facet's name in both languages"`
	Terms    []vocabTerm `json:"terms" jsonschema:"the facet's terms in display order"`
}

type vocabOutput struct {
	Lang   string       `json:"lang" jsonschema:"the language of the answer's text"`
	Facets []vocabFacet `json:"facets" jsonschema:"every facet asked for"`
	Notes  []string     `json:"notes,omitempty" jsonschema:"what the server changed or ignored in the call"`
}

// tool is a tool of the server: its declaration, its arguments and what
// answers it. run returns the text block and the structured content.
type tool struct {
	mcp    *mcp.Tool
	params []param
	run    func(m *model, c *call) (string, any, error)
}

func (s *Server) tools() []tool {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: jsonschema.Ptr(false)}
	lang := param{name: "lang", kind: kLang, desc: langDesc}
	return []tool{{
		mcp: &mcp.Tool{
			Name:  "search_incidents",
			Title: "Search incident post-mortems",
			Description: "Search the library of public incident post-mortems (Kubernetes, cloud and networking outages) for cases like the one at hand, " +
				"ranked as the site's search ranks them. Use it when someone describes an outage, a symptom, an error or a component and asks whether it has happened before or how others fixed it. " +
				"The query may be English or Korean; both find cases in both languages, and a Korean query answers in Korean. Filters (term ids from vocab) narrow the results: terms of one facet are ORed, facets ANDed. " +
				"Returns the best cases with id, title, organisation, date and page URL, and counts per term; call get_incident with an id for the whole case (also the resource incidentlib://cases/{id}).",
			OutputSchema: outputSchema[searchOutput](),
			Annotations:  readOnly,
		},
		params: append([]param{
			{name: "query", kind: kQuery, required: true, desc: "words to look for, in English or Korean (Korean with or without particles and spaces), such as 'ingress 404 after upgrade' or '로드 밸런서 헬스 체크'"},
			lang,
			{name: "limit", kind: kInt, desc: "how many cases to return, best first: 10 by default, at most 20"},
		}, filterParams()...),
		run: searchIncidents,
	}, {
		mcp: &mcp.Tool{
			Name:  "get_incident",
			Title: "Get one incident case",
			Description: "Get one case in full, as the Markdown of its page: summary, facts (severity, scope, time to detect and resolve), symptoms, root cause, trigger, components, " +
				"contributing factors, detection, remediation, action items, lessons, sources and related cases with the reason they are related. " +
				"id is a case id such as IL-0495 from search_incidents or list_incidents. lang is en (the default), ko, or both.",
			OutputSchema: outputSchema[incidentOutput](),
			Annotations:  readOnly,
		},
		params: []param{
			{name: "id", kind: kString, required: true, desc: "the case id, such as IL-0495, as search_incidents and list_incidents give it"},
			{name: "lang", kind: kLangBoth, desc: "language of the page: en (default), ko, or both for the two pages one after the other"},
		},
		run: getIncident,
	}, {
		mcp: &mcp.Tool{
			Name:  "list_incidents",
			Title: "List incident cases",
			Description: "List cases newest first, optionally filtered by facet terms (ids from vocab): terms of one facet are ORed, facets ANDed, " +
				"for example every case of 2024 whose component is ingress or cloud-load-balancer. Pages hold 20 cases by default; pass next_cursor back as cursor for the next page. " +
				"Use search_incidents instead to find cases by words.",
			OutputSchema: outputSchema[listOutput](),
			Annotations:  readOnly,
		},
		params: append(filterParams(),
			param{name: "lang", kind: kLang, desc: "language of titles and page URLs: en (default) or ko"},
			param{name: "limit", kind: kInt, desc: "cases per page: 20 by default, at most 25"},
			param{name: "cursor", kind: kString, desc: "next_cursor of the previous page, to get the page after it"},
		),
		run: listIncidents,
	}, {
		mcp: &mcp.Tool{
			Name:  "get_topic",
			Title: "Get a topic",
			Description: "Get what the site's topic page shows for one term of a facet, such as components/ingress or root-causes/software-bug: " +
				"its introduction, statistics of its cases (most common components, root causes and contributing factors, cases per year, median time to detect and to resolve) and its newest cases. " +
				"Use it to see the pattern across cases that share a component, cause or organisation.",
			OutputSchema: outputSchema[topicOutput](),
			Annotations:  readOnly,
		},
		params: []param{
			{name: "facet", kind: kString, required: true, desc: "one of " + strings.Join(cases.FacetNames(), ", ") + " (root_causes also works)"},
			{name: "term", kind: kTerm, required: true, desc: "a term id of that facet, such as ingress, software-bug, google-cloud or 2024 (a year may be a number; see vocab)"},
			{name: "lang", kind: kLang, desc: "language of the answer: en (default) or ko"},
		},
		run: getTopic,
	}, {
		mcp: &mcp.Tool{
			Name:  "vocab",
			Title: "List the vocabularies",
			Description: "List every facet's terms (components, symptoms, root causes, contributing factors, domains, organisations, years, severities) with their ids, " +
				"English and Korean labels, descriptions (in the language asked for, when one facet is asked for) and number of cases. The ids are what the filters of search_incidents and list_incidents and the term of get_topic take.",
			OutputSchema: outputSchema[vocabOutput](),
			Annotations:  readOnly,
		},
		params: []param{
			{name: "facet", kind: kString, desc: "only this facet (" + orList(cases.FacetNames()) + "); every facet when absent"},
			{name: "lang", kind: kLang, desc: "language of the answer's sentences and headings: en (default) or ko; labels come in both"},
		},
		run: vocab,
	}}
}

// orList joins names as a sentence does: "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func (s *Server) addTools() {
	for _, t := range s.tools() {
		t.mcp.InputSchema = inputSchema(t.params)
		s.mcp.AddTool(t.mcp, s.handler(t))
	}
}

// handler answers calls of t: arguments decoded leniently, every error a
// tool error in the caller's language, notes in the structured content
// and at the end of the text.
func (s *Server) handler(t tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		c, err := newCall(t.mcp.Name, t.params, req.Params.Arguments)
		if err != nil {
			return errorResult(err), nil
		}
		m, err := s.ready(c)
		if err != nil {
			return errorResult(err), nil
		}
		text, data, err := s.runBounded(ctx, t, m, c)
		if ctx.Err() != nil {
			return nil, ctx.Err() // the client cancelled the call
		}
		if err != nil {
			var ue userError
			if !errors.As(err, &ue) {
				err = c.fail("err.internal", err.Error())
			}
			return errorResult(err), nil
		}
		var b strings.Builder
		b.WriteString(text)
		for i, n := range c.notes {
			if i == 0 {
				b.WriteByte('\n')
			}
			b.WriteString(c.t("note", n) + "\n")
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}, StructuredContent: data}, nil
	}
}

// runBounded runs a tool for Options.CallTimeout at most. The tools do
// not stop half-way (none takes long: queries and pages are capped), so a
// call past its time answers with an error while its work ends in the
// background.
func (s *Server) runBounded(ctx context.Context, t tool, m *model, c *call) (string, any, error) {
	type answer struct {
		text string
		data any
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		text, data, err := t.run(m, c)
		done <- answer{text, data, err}
	}()
	timer := time.NewTimer(s.opt.CallTimeout)
	defer timer.Stop()
	select {
	case a := <-done:
		return a.text, a.data, a.err
	case <-ctx.Done():
		return "", nil, ctx.Err()
	case <-timer.C:
		return "", nil, c.fail("err.timeout", strconv.FormatFloat(s.opt.CallTimeout.Seconds(), 'f', -1, 64))
	}
}

func errorResult(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
}

// ready returns the model to answer from, or an error that lists the
// content's problems.
func (s *Server) ready(c *call) (*model, error) {
	m := s.cur.Load()
	if m.site != nil {
		return m, nil
	}
	var b strings.Builder
	n := m.diags.Errors()
	if n == 1 {
		b.WriteString(c.t("err.content.one", s.opt.Content))
	} else {
		b.WriteString(c.t("err.content.other", s.opt.Content, l10n.Number(n)))
	}
	k := 0
	for _, d := range m.diags.Items {
		if d.Warning {
			continue
		}
		if k++; k > 10 {
			b.WriteString("\n…")
			break
		}
		b.WriteString("\n" + d.String())
	}
	return nil, userError(b.String())
}

// langIndex is the place of lang in cases.Languages.
func langIndex(lang string) int { return slices.Index(cases.Languages, lang) }

// limit applies a limit argument's default and cap.
func limit(c *call, def, most int) int {
	n := c.int("limit")
	switch {
	case n <= 0:
		return def
	case n > most:
		c.note("note.limit", l10n.Number(n), l10n.Number(most), l10n.Cases(c.lang, most))
		return most
	}
	return n
}

// facetOf reads a facet argument: a URL name, or one spelled as an
// argument ("root_causes").
func facetOf(c *call, arg string) (string, error) {
	f := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(arg)), "_", "-")
	if cases.FacetByName(f) != nil {
		return f, nil
	}
	names := cases.FacetNames()
	return "", c.fail("err.facet", echo(arg), c.didYouMean(f, names), strings.Join(names, ", "))
}

// terms returns the term ids of a facet: the whole vocabulary of a
// controlled facet (terms without cases included), the organisations and
// years that cases have otherwise.
func (m *model) terms(facet string) []string {
	var ids []string
	if f := cases.FacetByName(facet); f.Controlled {
		for _, t := range m.lib.Vocab.Terms(f.Field) {
			ids = append(ids, t.ID)
		}
		return ids
	}
	for _, t := range m.site.Facets()[facet].Topics {
		ids = append(ids, t.ID)
	}
	return ids
}

// vocabTerm looks a term of a controlled facet up in the vocabulary.
func (m *model) vocabTerm(facet, id string) (cases.Term, bool) {
	if f := cases.FacetByName(facet); f.Controlled {
		return m.lib.Vocab.Term(f.Field, id)
	}
	return cases.Term{}, false
}

// checkTerm checks a term of a facet. A term of a controlled vocabulary
// must be in it (a typo gets its did-you-mean); a year must look like
// one; an organisation without cases simply has none, with a note when
// its slug is close to one that has.
func (m *model) checkTerm(c *call, facet, id, arg string) error {
	known := m.terms(facet)
	if slices.Contains(known, id) {
		return nil
	}
	switch cases.FacetByName(facet) {
	case cases.Years:
		if y, err := strconv.Atoi(id); err != nil || y < 1000 || y > 9999 {
			return c.fail("err.year", arg, echo(id))
		}
		return nil
	case cases.Orgs:
		c.note("note.no_such_org", strconv.Quote(id), c.didYouMean(id, known))
		return nil
	}
	return c.fail("err.term", arg, echo(id), c.didYouMean(id, known), strconv.Quote(facet))
}

// filter checks the filter arguments and returns them by facet URL name.
func (m *model) filter(c *call) (search.Filter, error) {
	out := search.Filter{}
	for _, f := range filterFacets() {
		facet := f.Name
		ids := c.list(f.Arg())
		if len(ids) == 0 {
			continue
		}
		for _, id := range ids {
			if err := m.checkTerm(c, facet, id, f.Arg()); err != nil {
				return nil, err
			}
		}
		out[facet] = ids
	}
	return out, nil
}

// describe writes the filters for a text answer: components=ingress,cdn.
func describe(c *call, f search.Filter) string {
	var parts []string
	for _, facet := range cases.FacetNames() {
		if ids := f[facet]; len(ids) > 0 {
			parts = append(parts, argName(facet)+"="+strings.Join(ids, ","))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return c.t("filters", strings.Join(parts, "; "))
}

func (m *model) item(c *cases.Case, lang string) caseItem {
	title, _ := c.Title.In(lang)
	return caseItem{
		ID: c.ID, Title: title, Org: c.Org, Date: c.Date.String(), Severity: c.Severity, RootCause: c.RootCause,
		Components: nonNil(c.Components),
		URL:        m.site.URL(urls.Case(lang, c.ID)),
	}
}

func nonNil(s []string) []string { return append([]string{}, s...) }

// writeItems appends one line per case: id, title, organisation, date (or
// "date unknown" when the source gives none) and page URL.
func writeItems(b *strings.Builder, c *call, items []caseItem) {
	for _, it := range items {
		date := it.Date
		if date == "" {
			date = c.t("item.date_unknown")
		}
		fmt.Fprintf(b, "- %s · %s · %s · %s · %s\n", it.ID, it.Title, it.Org, date, it.URL)
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
	f, err := m.filter(c)
	if err != nil {
		return "", nil, err
	}
	res := m.engine.Search(q, f)
	if res.Truncated {
		c.note("note.words_cut", strconv.Itoa(search.MaxQueryWords))
	}
	out.Query, out.Total, out.Partial = q, res.Total, res.Partial
	out.DidYouMean, out.WithoutFilters = res.DidYouMean, res.DropFilters
	out.Cases = []caseItem{}
	for _, h := range res.Hits[:min(n, len(res.Hits))] {
		it := m.item(m.lib.Cases[h.Doc], c.lang)
		it.Score = h.Score
		out.Cases = append(out.Cases, it)
	}
	out.Counts = []facetCounts{}
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
		out.Counts = append(out.Counts, fc)
	}

	var b strings.Builder
	quoted, filters := strconv.Quote(q), describe(c, f)
	if out.Total == 0 {
		b.WriteString(c.t("search.none", quoted, filters))
		switch {
		case out.WithoutFilters > 0:
			b.WriteString(" " + c.tn("search.without_filters", out.WithoutFilters, l10n.Cases(c.lang, out.WithoutFilters)))
		case out.DidYouMean != "":
			b.WriteString(" " + c.t("search.did_you_mean", strconv.Quote(out.DidYouMean)))
		}
		b.WriteByte('\n')
	} else {
		b.WriteString(c.tn("search.head", out.Total, l10n.Cases(c.lang, out.Total), quoted, filters))
		b.WriteString(" " + c.t("search.best", l10n.Count(c.lang, len(out.Cases))) + "\n")
		if out.Partial {
			b.WriteString(c.t("search.partial") + "\n")
		}
		writeItems(&b, c, out.Cases)
		b.WriteString("\n" + c.t("search.whole_case") + "\n")
	}
	out.Notes = c.notes
	return b.String(), out, nil
}

// cursor is where a page of list_incidents ends: the last case's date and
// id, the order of the list, so that the next page starts at the right
// place even when that case was removed in between.
type cursor struct {
	date cases.Date
	id   string
}

func (c cursor) String() string {
	return fmt.Sprintf("%s@%d.%d.%d", c.id, c.date.Year, c.date.Month, c.date.Day)
}

func parseCursor(s string) (cursor, bool) {
	id, date, ok := strings.Cut(s, "@")
	var c cursor
	var y, m, d int
	if !ok || !cases.IsID(id) {
		return c, false
	}
	if n, err := fmt.Sscanf(date, "%d.%d.%d", &y, &m, &d); n != 3 || err != nil || m < 0 || m > 12 || d < 0 || d > 31 {
		return c, false
	}
	c.id = id
	c.date.Year, c.date.Month, c.date.Day = y, time.Month(m), d
	return c, true
}

// after reports whether case c comes after the cursor in the list's order
// (newest first, then by id).
func (cur cursor) after(c *cases.Case) bool {
	if c.Date != cur.date {
		return c.Date.Before(cur.date)
	}
	return c.ID > cur.id
}

// filtered returns the cases that pass f, in the library's order (newest
// first), from the topics the site derived.
func (m *model) filtered(f search.Filter) []*cases.Case {
	if len(f) == 0 {
		return m.lib.Cases
	}
	hits := make([]int, len(m.lib.Cases))
	seen := make([]int, len(m.lib.Cases)) // last facet (1-based) that counted a case
	k := 0
	for facet, ids := range f {
		k++
		fc := m.site.Facets()[facet]
		for _, id := range ids {
			t := fc.Topic(id)
			if t == nil {
				continue
			}
			for _, c := range t.Cases {
				if i := m.index[c]; seen[i] != k {
					seen[i] = k
					hits[i]++
				}
			}
		}
	}
	var out []*cases.Case
	for i, n := range hits {
		if n == k {
			out = append(out, m.lib.Cases[i])
		}
	}
	return out
}

func listIncidents(m *model, c *call) (string, any, error) {
	out := listOutput{Lang: c.lang}
	n := limit(c, listDefault, listMax)
	f, err := m.filter(c)
	if err != nil {
		return "", nil, err
	}
	all := m.filtered(f)
	from := 0
	if arg := c.str("cursor"); arg != "" {
		cur, ok := parseCursor(arg)
		if !ok {
			return "", nil, c.fail("err.cursor", echo(arg))
		}
		from, _ = slices.BinarySearchFunc(all, cur, func(c *cases.Case, cur cursor) int {
			if cur.after(c) {
				return 1
			}
			return -1
		})
	}
	page := all[from:min(from+n, len(all))]
	out.Total = len(all)
	out.Cases = make([]caseItem, len(page))
	for i, cs := range page {
		out.Cases[i] = m.item(cs, c.lang)
	}
	if from+len(page) < len(all) {
		last := page[len(page)-1]
		out.NextCursor = cursor{last.Date, last.ID}.String()
	}

	var b strings.Builder
	filters := describe(c, f)
	if len(page) == 0 {
		b.WriteString(c.t("list.head_none", l10n.Cases(c.lang, out.Total), filters))
		if out.Total > 0 {
			b.WriteString(" " + c.t("list.none_after"))
		}
		b.WriteByte('\n')
	} else {
		b.WriteString(c.t("list.head", l10n.Cases(c.lang, out.Total), filters, l10n.Range(c.lang, from+1, from+len(page), out.Total)) + "\n")
		writeItems(&b, c, out.Cases)
	}
	if out.NextCursor != "" {
		b.WriteString("\n" + c.t("list.more", strconv.Quote(out.NextCursor)) + "\n")
	}
	out.Notes = c.notes
	return b.String(), out, nil
}

// lookup finds a case by an id argument.
func (m *model) lookup(c *call, arg string) (*cases.Case, error) {
	id := strings.ToUpper(strings.TrimSpace(arg))
	if cs := m.lib.ByID[id]; cs != nil {
		return cs, nil
	}
	example := "IL-0495"
	if len(m.lib.Cases) > 0 {
		example = m.lib.Cases[0].ID
	}
	if !cases.IsID(id) {
		return nil, c.fail("err.bad_id", echo(arg), example)
	}
	ids := make([]string, len(m.lib.Cases))
	for i, cs := range m.lib.Cases {
		ids[i] = cs.ID
	}
	return nil, c.fail("err.no_case", id, c.didYouMean(id, ids))
}

func getIncident(m *model, c *call) (string, any, error) {
	langs := []string{c.lang}
	if c.str("lang") == "both" {
		langs = cases.Languages
	}
	cs, err := m.lookup(c, c.str("id"))
	if err != nil {
		return "", nil, err
	}
	out := incidentOutput{ID: cs.ID, Org: cs.Org, Date: cs.Date.String(), Severity: cs.Severity, RootCause: cs.RootCause,
		Components: nonNil(cs.Components), Symptoms: nonNil(cs.Symptoms), Contributing: nonNil(cs.Contributing), Domains: nonNil(cs.Domain),
		Related: []string{}, Pages: []casePage{}, Resource: caseURI(cs.ID)}
	for _, g := range m.site.Related(cs.ID) {
		for _, l := range g.Links {
			out.Related = append(out.Related, l.ID)
		}
	}
	var b strings.Builder
	for i, lang := range langs {
		p := casePage{Lang: lang, URL: m.site.URL(urls.Case(lang, cs.ID))}
		p.Title, _ = cs.Title.In(lang)
		out.Pages = append(out.Pages, p)
		md, err := api.CaseMarkdown(m.site, cs, lang)
		if err != nil {
			return "", nil, err
		}
		if i > 0 {
			b.WriteString("\n---\n\n")
		}
		b.Write(md)
		b.WriteString(fmt.Sprintf(msgs.Get(lang, "incident.page"), p.URL) + "\n")
	}
	out.Notes = c.notes
	return b.String(), out, nil
}

func getTopic(m *model, c *call) (string, any, error) {
	facet, err := facetOf(c, c.str("facet"))
	if err != nil {
		return "", nil, err
	}
	term := c.str("term")
	t := m.site.Facets()[facet].Topic(term)
	if t == nil {
		if err := m.checkTerm(c, facet, term, "term"); err != nil {
			return "", nil, err
		}
		out := topicOutput{Facet: facet, Argument: argName(facet), Term: term, Lang: c.lang, Label: term, Cases: []caseItem{}, Notes: c.notes}
		if vt, ok := m.vocabTerm(facet, term); ok {
			out.Label = vt.Label.Get(c.lang)
			out.Description, _ = vt.Description.In(c.lang)
		}
		text := fmt.Sprintf("# %s (%s: %s)\n\n%s\n", out.Label, cases.FacetByName(facet).Label.Get(c.lang), term, c.t("topic.empty"))
		return text, out, nil
	}
	out := m.topicOutput(t, facet, c.lang)
	out.Notes = c.notes
	return m.topicText(c, out, t), out, nil
}

// topicOutput is what get_topic answers about a topic, as data.
func (m *model) topicOutput(t *site.Topic, facet, lang string) topicOutput {
	label := func(field, id string) string {
		if t, ok := m.lib.Vocab.Term(field, id); ok {
			return t.Label.Get(lang)
		}
		return id
	}
	counts := func(field string, tcs []site.TermCount) []termCount {
		out := make([]termCount, len(tcs))
		for i, tc := range tcs {
			out[i] = termCount{ID: tc.ID, Label: label(field, tc.ID), Cases: tc.Count}
			if field == "" {
				out[i].Label = m.site.Facets()[cases.Years.Name].Topic(tc.ID).Label.Get(lang)
			}
		}
		return out
	}
	out := topicOutput{Facet: facet, Argument: argName(facet), Term: t.ID, Lang: lang, Count: len(t.Cases), URL: m.site.URL(urls.Topic(lang, facet, t.ID, 1))}
	out.Label, _ = t.Label.In(lang)
	if l, ok := m.labels[facet][t.ID]; ok && l[langIndex(lang)] != "" {
		out.Label = l[langIndex(lang)] // an organisation's Korean name
	}
	out.Description, _ = t.Description.In(lang)
	if intro, ok := m.lib.Topics[facet][t.ID]; ok {
		out.Intro, _ = intro.In(lang)
	}
	st := t.Stats()
	out.Stats = &topicStats{
		Components: counts(cases.Components.Field, st.Components), RootCauses: counts(cases.RootCauses.Field, st.RootCauses),
		Contributing: counts(cases.Contributing.Field, st.Contributing), Years: counts("", st.Years),
		MedianDetect: st.MedianDetect, MedianResolve: st.MedianResolve, KnownDetect: st.KnownDetect, KnownResolve: st.KnownResolve,
	}
	shown := t.Cases[:min(len(t.Cases), m.lib.Site.PageSize)]
	out.Cases = make([]caseItem, len(shown))
	for i, c := range shown {
		out.Cases[i] = m.item(c, lang)
	}
	out.More = len(t.Cases) - len(shown)
	return out
}

// topicText is get_topic's answer as Markdown.
func (m *model) topicText(c *call, out topicOutput, t *site.Topic) string {
	str, lang := m.site.Strings(), c.lang
	st := t.Stats()
	var b strings.Builder
	fmt.Fprintf(&b, "# %s (%s: %s)\n\n%s · %s\n", out.Label, cases.FacetByName(out.Facet).Label.Get(lang), t.ID, l10n.Cases(lang, out.Count), out.URL)
	if out.Description != "" {
		fmt.Fprintf(&b, "\n%s\n", out.Description)
	}
	if out.Intro != "" {
		fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(out.Intro))
	}
	fmt.Fprintf(&b, "\n## %s\n\n", str.Get(lang, "stats.title"))
	for _, g := range []struct {
		key   string
		items []termCount
	}{{"stats.components", out.Stats.Components}, {"stats.root_causes", out.Stats.RootCauses}, {"stats.contributing", out.Stats.Contributing}, {"stats.years", out.Stats.Years}} {
		if len(g.items) == 0 {
			continue
		}
		parts := make([]string, len(g.items))
		for i, it := range g.items {
			parts[i] = fmt.Sprintf("%s (%s)", it.Label, l10n.Count(lang, it.Cases))
		}
		fmt.Fprintf(&b, "- %s: %s\n", str.Get(lang, g.key), strings.Join(parts, ", "))
	}
	for _, md := range []struct {
		key          string
		median       *int
		known, total int
	}{{"stats.median_detect", st.MedianDetect, st.KnownDetect, st.Total}, {"stats.median_resolve", st.MedianResolve, st.KnownResolve, st.Total}} {
		if md.median != nil {
			fmt.Fprintf(&b, "- %s: %s (%s)\n", str.Get(lang, md.key), l10n.Duration(lang, *md.median),
				fmt.Sprintf(str.Get(lang, "stats.known_of"), l10n.Number(md.known), l10n.Number(md.total)))
		}
	}
	fmt.Fprintf(&b, "\n## %s\n\n", str.Get(lang, "nav.cases"))
	writeItems(&b, c, out.Cases)
	if out.More > 0 {
		b.WriteString("\n" + c.t("topic.more", l10n.Count(lang, out.More), fmt.Sprintf("{%q: [%q]}", out.Argument, t.ID)) + "\n")
	}
	return b.String()
}

func vocab(m *model, c *call) (string, any, error) {
	facets := cases.FacetNames()
	// Descriptions come with one facet only: with every facet they would
	// make the answer grow past what a tool answer should hold as the
	// vocabulary grows.
	describe := false
	if arg := c.str("facet"); arg != "" {
		describe = true
		f, err := facetOf(c, arg)
		if err != nil {
			return "", nil, err
		}
		facets = []string{f}
	}
	out := vocabOutput{Lang: c.lang, Facets: []vocabFacet{}}
	var b strings.Builder
	for _, facet := range facets {
		label := cases.FacetByName(facet).Label
		vf := vocabFacet{Facet: facet, Argument: argName(facet), Terms: []vocabTerm{},
			Name: bothLangs{En: label.En, Ko: label.Ko}}
		fc := m.site.Facets()[facet]
		for _, id := range m.terms(facet) {
			vt := vocabTerm{ID: id}
			if t := fc.Topic(id); t != nil {
				vt.Label, vt.Cases = bothLangs{En: t.Label.En, Ko: t.Label.Ko}, len(t.Cases)
				if describe {
					vt.Description, _ = t.Description.In(c.lang)
				}
			} else if t, ok := m.vocabTerm(facet, id); ok {
				vt.Label = bothLangs{En: t.Label.En, Ko: t.Label.Ko}
				if describe {
					vt.Description, _ = t.Description.In(c.lang)
				}
			}
			if l, ok := m.labels[facet][id]; ok {
				vt.Label = bothLangs{En: l[0], Ko: l[1]}
			}
			vf.Terms = append(vf.Terms, vt)
		}
		out.Facets = append(out.Facets, vf)

		b.WriteString(c.t("vocab.head", label.Get(c.lang), facet, vf.Argument) + "\n\n")
		for _, t := range vf.Terms {
			label := t.Label.En
			if c.lang == "ko" {
				label = t.Label.Ko
			}
			fmt.Fprintf(&b, "- %s: %s (%d)\n", t.ID, label, t.Cases)
		}
		b.WriteByte('\n')
	}
	b.WriteString(c.t("vocab.counts") + "\n")
	out.Notes = c.notes
	return b.String(), out, nil
}

// readCase answers resources/read for incidentlib://cases/{ID}: the case's
// Markdown twin in both languages.
func (s *Server) readCase(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	m, err := s.ready(&call{lang: "en"})
	if err != nil {
		// Not the client's fault: the content has errors.
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	id, ok := strings.CutPrefix(uri, caseURIPrefix)
	c := m.lib.ByID[id]
	if !ok || c == nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	res := &mcp.ReadResourceResult{}
	for _, lang := range cases.Languages {
		md, err := api.CaseMarkdown(m.site, c, lang)
		if err != nil {
			return nil, err
		}
		res.Contents = append(res.Contents, &mcp.ResourceContents{URI: uri, MIMEType: "text/markdown", Text: string(md)})
	}
	return res, nil
}
