package mcpserver

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
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
	searchMax     = 50
	listDefault   = 20
	listMax       = 100
	maxQueryBytes = 500
	// echoRunes is how much of a bad argument an error message repeats.
	echoRunes = 40
)

// caseURIPrefix starts the URI of every case resource.
const caseURIPrefix = "incidentlib://cases/"

func caseURI(id string) string { return caseURIPrefix + id }

// Filters are the facet filters of search_incidents and list_incidents.
// Each field is named after a facet of cases.Facets with "_" for "-"
// (argName); TestFilterFields holds the two lists together.
type Filters struct {
	Components   []string `json:"components,omitempty" jsonschema:"component term ids, such as ingress (see vocab)"`
	Symptoms     []string `json:"symptoms,omitempty" jsonschema:"symptom term ids, such as high-error-rate"`
	RootCauses   []string `json:"root_causes,omitempty" jsonschema:"root cause term ids, such as software-bug"`
	Contributing []string `json:"contributing,omitempty" jsonschema:"contributing factor term ids, such as automation-amplified"`
	Domains      []string `json:"domains,omitempty" jsonschema:"domain term ids, such as kubernetes"`
	Orgs         []string `json:"orgs,omitempty" jsonschema:"organisation slugs, such as google-cloud"`
	Years        []string `json:"years,omitempty" jsonschema:"years of the incident, such as 2024"`
	Severities   []string `json:"severities,omitempty" jsonschema:"severity term ids"`
}

// argName is the argument name of a facet: its URL name with "_" for "-",
// as JSON arguments are spelled.
func argName(facet string) string { return strings.ReplaceAll(facet, "-", "_") }

// byFacet returns the filters by facet URL name, leaving out empty ones.
func (f *Filters) byFacet() map[string][]string {
	out := map[string][]string{}
	v := reflect.ValueOf(f).Elem()
	for i := 0; i < v.NumField(); i++ {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		if ids := v.Field(i).Interface().([]string); len(ids) > 0 {
			out[strings.ReplaceAll(name, "_", "-")] = ids
		}
	}
	return out
}

type searchInput struct {
	Query string `json:"query" jsonschema:"words to look for, in English or Korean (Korean with or without particles and spaces), such as 'ingress 404 after upgrade' or '로드 밸런서 헬스 체크'"`
	Lang  string `json:"lang,omitempty" jsonschema:"language of titles and page URLs in the answer: en (default) or ko; either finds cases in both"`
	Limit int    `json:"limit,omitempty" jsonschema:"how many cases to return, best first: 10 by default, at most 50"`
	Filters
}

type listInput struct {
	Filters
	Lang   string `json:"lang,omitempty" jsonschema:"language of titles and page URLs: en (default) or ko"`
	Limit  int    `json:"limit,omitempty" jsonschema:"cases per page: 20 by default, at most 100"`
	Cursor string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page, to get the page after it"`
}

type incidentInput struct {
	ID   string `json:"id" jsonschema:"the case id, such as IL-0495, as search_incidents and list_incidents give it"`
	Lang string `json:"lang,omitempty" jsonschema:"en or ko; both languages when absent"`
}

type topicInput struct {
	Facet string `json:"facet" jsonschema:"one of components, symptoms, root-causes, contributing, domains, orgs, years, severities (root_causes also works)"`
	Term  string `json:"term" jsonschema:"a term id of that facet, such as ingress, software-bug, google-cloud or 2024 (see vocab)"`
	Lang  string `json:"lang,omitempty" jsonschema:"en (default) or ko"`
}

type vocabInput struct {
	Facet string `json:"facet,omitempty" jsonschema:"only this facet (components, symptoms, root-causes, contributing, domains, orgs, years or severities); every facet when absent"`
}

// caseItem is a case as lists and search results name it.
type caseItem struct {
	ID         string   `json:"id"`
	Title      string   `json:"title"`
	Org        string   `json:"org"`
	Date       string   `json:"date" jsonschema:"date of the incident (or of its report): YYYY-MM-DD, YYYY-MM or YYYY when only that is known; empty when the source gives no date"`
	Severity   string   `json:"severity"`
	RootCause  string   `json:"root_cause"`
	Components []string `json:"components"`
	URL        string   `json:"url" jsonschema:"the case's page in the language asked for"`
	Resource   string   `json:"resource" jsonschema:"the case as an MCP resource"`
	Score      float64  `json:"score,omitempty" jsonschema:"search relevance (higher is better)"`
}

type searchOutput struct {
	Query          string                    `json:"query" jsonschema:"the query as searched, after any cut"`
	Total          int                       `json:"total" jsonschema:"number of matching cases"`
	Partial        bool                      `json:"partial" jsonschema:"no case matches every word; these match some"`
	Cases          []caseItem                `json:"cases"`
	Counts         map[string]map[string]int `json:"counts" jsonschema:"for each filter argument, matching cases per term id (a facet's own filter not applied)"`
	DidYouMean     string                    `json:"did_you_mean,omitempty" jsonschema:"a corrected query, when nothing matched"`
	WithoutFilters int                       `json:"without_filters,omitempty" jsonschema:"matches without the filters, when the filters left none"`
	Notes          []string                  `json:"notes,omitempty"`
}

type listOutput struct {
	Total      int        `json:"total" jsonschema:"number of cases that pass the filters"`
	Cases      []caseItem `json:"cases" jsonschema:"this page, newest first"`
	NextCursor string     `json:"next_cursor,omitempty" jsonschema:"pass as cursor for the next page; absent on the last page"`
	Notes      []string   `json:"notes,omitempty"`
}

type incidentOutput struct {
	ID       string            `json:"id"`
	Org      string            `json:"org"`
	Date     string            `json:"date"`
	Title    map[string]string `json:"title" jsonschema:"title by language"`
	Pages    map[string]string `json:"pages" jsonschema:"page URL by language"`
	Markdown map[string]string `json:"markdown" jsonschema:"the whole case, as the Markdown twin of its page, by language"`
	Resource string            `json:"resource"`
}

type termCount struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Cases int    `json:"cases"`
}

type topicStats struct {
	Components    []termCount `json:"components" jsonschema:"most common components"`
	RootCauses    []termCount `json:"root_causes" jsonschema:"most common root causes"`
	Contributing  []termCount `json:"contributing" jsonschema:"most common contributing factors"`
	Years         []termCount `json:"years" jsonschema:"cases per year, oldest first"`
	MedianDetect  *int        `json:"median_minutes_to_detect" jsonschema:"median minutes to detect, null when no case knows"`
	MedianResolve *int        `json:"median_minutes_to_resolve" jsonschema:"median minutes to resolve, null when no case knows"`
	KnownDetect   int         `json:"known_detect" jsonschema:"cases whose time to detect is known"`
	KnownResolve  int         `json:"known_resolve" jsonschema:"cases whose time to resolve is known"`
}

type topicOutput struct {
	Facet       string     `json:"facet"`
	Argument    string     `json:"argument" jsonschema:"the filter argument of this facet in search_incidents and list_incidents"`
	Term        string     `json:"term"`
	Label       string     `json:"label"`
	Description string     `json:"description,omitempty"`
	Intro       string     `json:"intro,omitempty" jsonschema:"the topic page's introduction, Markdown"`
	Count       int        `json:"count" jsonschema:"number of cases"`
	URL         string     `json:"url" jsonschema:"the topic page"`
	Stats       topicStats `json:"stats"`
	Cases       []caseItem `json:"cases" jsonschema:"the newest cases, as on the first page of the topic"`
	More        int        `json:"more" jsonschema:"cases not listed here; list_incidents with this facet's filter lists them all"`
}

type vocabTerm struct {
	ID          string            `json:"id"`
	En          string            `json:"en"`
	Ko          string            `json:"ko"`
	Description map[string]string `json:"description,omitempty"`
	Cases       int               `json:"cases"`
}

type vocabFacet struct {
	Facet    string            `json:"facet"`
	Argument string            `json:"argument" jsonschema:"the filter argument of this facet in search_incidents and list_incidents"`
	Name     map[string]string `json:"name" jsonschema:"the facet's name by language"`
	Terms    []vocabTerm       `json:"terms"`
}

type vocabOutput struct {
	Facets []vocabFacet `json:"facets"`
}

// inputSchema infers a tool's input schema from its type and narrows
// what the types cannot say.
func inputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err) // a mistake in the types above
	}
	if p := s.Properties["lang"]; p != nil {
		p.Enum = []any{"en", "ko"}
	}
	if p := s.Properties["limit"]; p != nil {
		p.Minimum = jsonschema.Ptr(1.0)
	}
	return s
}

// usage describes a tool's arguments from its input schema, for the
// errors of arguments that do not fit it.
func usage(tool *mcp.Tool) string {
	in := tool.InputSchema.(*jsonschema.Schema)
	parts := make([]string, 0, len(in.PropertyOrder))
	for _, name := range in.PropertyOrder {
		p := in.Properties[name]
		kind := p.Type
		if p.Types != nil {
			kind = "array of strings"
		}
		switch {
		case p.Enum != nil:
			kind = fmt.Sprintf("%q or %q", p.Enum[0], p.Enum[1])
		case p.Minimum != nil:
			kind += fmt.Sprintf(" from %g", *p.Minimum)
		}
		if slices.Contains(in.Required, name) {
			kind += ", required"
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", name, kind))
	}
	return tool.Name + " takes " + strings.Join(parts, ", ")
}

// explainArguments adds to the SDK's error for arguments that do not fit a
// tool's schema which arguments the tool takes.
func explainArguments(usages map[string]string) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			r, ok := res.(*mcp.CallToolResult)
			if err != nil || !ok || !r.IsError || len(r.Content) != 1 {
				return res, err
			}
			tc, ok := r.Content[0].(*mcp.TextContent)
			call, _ := req.(*mcp.CallToolRequest)
			if ok && call != nil && strings.HasPrefix(tc.Text, `validating "arguments"`) {
				tc.Text += "; " + usages[call.Params.Name]
			}
			return res, err
		}
	}
}

func (s *Server) addTools() {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: jsonschema.Ptr(false)}
	usages := map[string]string{}
	defer func() { s.mcp.AddReceivingMiddleware(explainArguments(usages)) }()
	add(s, usages, &mcp.Tool{
		Name:  "search_incidents",
		Title: "Search incident post-mortems",
		Description: "Search the library of public incident post-mortems (Kubernetes, cloud and networking outages) for cases like the one at hand, " +
			"ranked as the site's search ranks them. Use it when someone describes an outage, a symptom, an error or a component and asks whether it has happened before or how others fixed it. " +
			"The query may be English or Korean; both find cases in both languages. Filters (term ids from vocab) narrow the results: terms of one facet are ORed, facets ANDed. " +
			"Returns the best cases with id, title, organisation, date and page URL, and counts per term; call get_incident with an id for the whole case.",
		InputSchema: inputSchema[searchInput](),
		Annotations: readOnly,
	}, s.searchIncidents)
	add(s, usages, &mcp.Tool{
		Name:  "get_incident",
		Title: "Get one incident case",
		Description: "Get one case in full, as the Markdown of its page: summary, facts (severity, scope, time to detect and resolve), symptoms, root cause, trigger, components, " +
			"contributing factors, detection, remediation, action items, lessons, sources and related cases with the reason they are related. " +
			"id is a case id such as IL-0495 from search_incidents or list_incidents. lang is en or ko; both when absent.",
		InputSchema: inputSchema[incidentInput](),
		Annotations: readOnly,
	}, s.getIncident)
	add(s, usages, &mcp.Tool{
		Name:  "list_incidents",
		Title: "List incident cases",
		Description: "List cases newest first, optionally filtered by facet terms (ids from vocab): terms of one facet are ORed, facets ANDed, " +
			"for example every case of 2024 whose component is ingress or cloud-load-balancer. Pages hold 20 cases by default; pass next_cursor back as cursor for the next page. " +
			"Use search_incidents instead to find cases by words.",
		InputSchema: inputSchema[listInput](),
		Annotations: readOnly,
	}, s.listIncidents)
	add(s, usages, &mcp.Tool{
		Name:  "get_topic",
		Title: "Get a topic",
		Description: "Get what the site's topic page shows for one term of a facet, such as components/ingress or root-causes/software-bug: " +
			"its introduction, statistics of its cases (most common components, root causes and contributing factors, cases per year, median time to detect and to resolve) and its newest cases. " +
			"Use it to see the pattern across cases that share a component, cause or organisation.",
		InputSchema: inputSchema[topicInput](),
		Annotations: readOnly,
	}, s.getTopic)
	add(s, usages, &mcp.Tool{
		Name:  "vocab",
		Title: "List the vocabularies",
		Description: "List every facet's terms (components, symptoms, root causes, contributing factors, domains, organisations, years, severities) with their ids, " +
			"English and Korean labels, descriptions and number of cases. The ids are what the filters of search_incidents and list_incidents and the term of get_topic take.",
		InputSchema: inputSchema[vocabInput](),
		Annotations: readOnly,
	}, s.vocab)
}

// add registers a tool and notes its usage.
func add[In, Out any](s *Server, usages map[string]string, tool *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	usages[tool.Name] = usage(tool)
	mcp.AddTool(s.mcp, tool, h)
}

// ready returns the model to answer from, or an error that lists the
// content's problems.
func (s *Server) ready() (*model, error) {
	m := s.cur.Load()
	if m.site != nil {
		return m, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the library in %s has %d errors, and no answer can be given until they are fixed (the server reads the files again on every save):", s.opt.Content, m.diags.Errors())
	n := 0
	for _, d := range m.diags.Items {
		if d.Warning {
			continue
		}
		if n++; n > 10 {
			b.WriteString("\n…")
			break
		}
		b.WriteString("\n" + d.String())
	}
	return nil, fmt.Errorf("%s", b.String())
}

// echo quotes a bad argument for an error message, shortened.
func echo(s string) string {
	if utf8.RuneCountInString(s) > echoRunes {
		s = string([]rune(s)[:echoRunes]) + "…"
	}
	return strconv.Quote(s)
}

// langIndex is the place of lang in cases.Languages.
func langIndex(lang string) int { return slices.Index(cases.Languages, lang) }

// language checks a lang argument; "" gives def.
func language(lang, def string) (string, error) {
	switch lang {
	case "":
		return def, nil
	case "en", "ko":
		return lang, nil
	}
	return "", fmt.Errorf("lang %s is not a language of the library: use \"en\" or \"ko\"", echo(lang))
}

// limit applies a limit argument's default and cap.
func limit(n, def, most int, notes *[]string) int {
	switch {
	case n <= 0:
		return def
	case n > most:
		*notes = append(*notes, fmt.Sprintf("limit %d is more than the %d allowed; %d cases are returned", n, most, most))
		return most
	}
	return n
}

// facetOf reads a facet argument: a URL name, or one spelled as an
// argument ("root_causes").
func facetOf(arg string) (string, error) {
	f := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(arg)), "_", "-")
	if slices.Contains(cases.Facets, f) {
		return f, nil
	}
	return "", fmt.Errorf("unknown facet %s%s: facets are %s", echo(arg), cases.DidYouMean(f, cases.Facets), strings.Join(cases.Facets, ", "))
}

// terms returns the term ids of a facet: the whole vocabulary of a
// controlled facet (terms without cases included), the organisations and
// years that cases have otherwise.
func (m *model) terms(facet string) []string {
	var ids []string
	if field, ok := cases.FacetField[facet]; ok {
		for _, t := range m.lib.Vocab.Terms(field) {
			ids = append(ids, t.ID)
		}
		return ids
	}
	for _, t := range m.site.Facets()[facet].Topics {
		ids = append(ids, t.ID)
	}
	return ids
}

// filter checks the filters and returns them by facet URL name.
func (m *model) filter(f *Filters) (search.Filter, error) {
	out := search.Filter{}
	byFacet := f.byFacet()
	for _, facet := range cases.Facets {
		ids := byFacet[facet]
		if len(ids) == 0 {
			continue
		}
		known := m.terms(facet)
		for _, id := range ids {
			if !slices.Contains(known, id) {
				return nil, fmt.Errorf("%s: unknown term %s%s; vocab lists the terms of every facet", argName(facet), echo(id), cases.DidYouMean(id, known))
			}
		}
		out[facet] = ids
	}
	return out, nil
}

// describe writes the filters for a text answer: components=ingress,cdn.
func describe(f search.Filter) string {
	var parts []string
	for _, facet := range cases.Facets {
		if ids := f[facet]; len(ids) > 0 {
			parts = append(parts, argName(facet)+"="+strings.Join(ids, ","))
		}
	}
	return strings.Join(parts, "; ")
}

func (m *model) item(c *cases.Case, lang string) caseItem {
	title, _ := c.Title.In(lang)
	return caseItem{
		ID: c.ID, Title: title, Org: c.Org, Date: c.Date.String(), Severity: c.Severity, RootCause: c.RootCause,
		Components: append([]string{}, c.Components...),
		URL:        m.site.URL(urls.Case(lang, c.ID)),
		Resource:   caseURI(c.ID),
	}
}

// writeItems appends one line per case: id, title, organisation, date (or
// "date unknown" when the source gives none) and page URL.
func writeItems(b *strings.Builder, items []caseItem) {
	for _, it := range items {
		date := it.Date
		if date == "" {
			date = "date unknown"
		}
		fmt.Fprintf(b, "- %s · %s · %s · %s · %s\n", it.ID, it.Title, it.Org, date, it.URL)
	}
}

func writeNotes(b *strings.Builder, notes []string) {
	for _, n := range notes {
		fmt.Fprintf(b, "\nNote: %s.", n)
	}
	if len(notes) > 0 {
		b.WriteByte('\n')
	}
}

func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
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

func (s *Server) searchIncidents(_ context.Context, _ *mcp.CallToolRequest, in searchInput) (*mcp.CallToolResult, searchOutput, error) {
	var out searchOutput
	m, err := s.ready()
	if err != nil {
		return nil, out, err
	}
	lang, err := language(in.Lang, "en")
	if err != nil {
		return nil, out, err
	}
	q, cut := cutQuery(in.Query)
	if strings.TrimSpace(q) == "" {
		return nil, out, fmt.Errorf("query is empty: give words to look for, such as \"ingress 404\"; to list cases by facet without words, use list_incidents")
	}
	if cut {
		out.Notes = append(out.Notes, fmt.Sprintf("the query was %d bytes; only its first %d were searched", len(in.Query), len(q)))
	}
	n := limit(in.Limit, searchDefault, searchMax, &out.Notes)
	f, err := m.filter(&in.Filters)
	if err != nil {
		return nil, out, err
	}
	res := m.engine.Search(q, f)
	if res.Truncated {
		out.Notes = append(out.Notes, fmt.Sprintf("the query has more than %d words; only the first %d were searched, as on the search page", search.MaxQueryWords, search.MaxQueryWords))
	}
	out.Query, out.Total, out.Partial = q, res.Total, res.Partial
	out.DidYouMean, out.WithoutFilters = res.DidYouMean, res.DropFilters
	out.Cases = []caseItem{}
	for _, h := range res.Hits[:min(n, len(res.Hits))] {
		it := m.item(m.lib.Cases[h.Doc], lang)
		it.Score = h.Score
		out.Cases = append(out.Cases, it)
	}
	out.Counts = map[string]map[string]int{}
	for facet, counts := range res.Counts {
		out.Counts[argName(facet)] = counts
	}

	var b strings.Builder
	fmt.Fprintf(&b, "%d cases match %s", out.Total, strconv.Quote(q))
	if len(f) > 0 {
		fmt.Fprintf(&b, " with %s", describe(f))
	}
	switch {
	case out.Total == 0 && out.WithoutFilters > 0:
		fmt.Fprintf(&b, ". Without the filters %d cases match.\n", out.WithoutFilters)
	case out.Total == 0 && out.DidYouMean != "":
		fmt.Fprintf(&b, ". Did you mean %s?\n", strconv.Quote(out.DidYouMean))
	case out.Total == 0:
		b.WriteString(".\n")
	default:
		fmt.Fprintf(&b, "; the best %d:\n", len(out.Cases))
		if out.Partial {
			b.WriteString("(No case matches every word; these match some of them.)\n")
		}
		writeItems(&b, out.Cases)
		b.WriteString("\nget_incident with an id gives the whole case.\n")
	}
	writeNotes(&b, out.Notes)
	return textResult(b.String()), out, nil
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

func (s *Server) listIncidents(_ context.Context, _ *mcp.CallToolRequest, in listInput) (*mcp.CallToolResult, listOutput, error) {
	var out listOutput
	m, err := s.ready()
	if err != nil {
		return nil, out, err
	}
	lang, err := language(in.Lang, "en")
	if err != nil {
		return nil, out, err
	}
	n := limit(in.Limit, listDefault, listMax, &out.Notes)
	f, err := m.filter(&in.Filters)
	if err != nil {
		return nil, out, err
	}
	all := m.filtered(f)
	from := 0
	if in.Cursor != "" {
		cur, ok := parseCursor(in.Cursor)
		if !ok {
			return nil, out, fmt.Errorf("cursor %s is not one this server gave: pass next_cursor of the previous answer as it is, or leave cursor out for the first page", echo(in.Cursor))
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
	for i, c := range page {
		out.Cases[i] = m.item(c, lang)
	}
	if from+len(page) < len(all) {
		last := page[len(page)-1]
		out.NextCursor = cursor{last.Date, last.ID}.String()
	}

	var b strings.Builder
	fmt.Fprintf(&b, "%d cases", out.Total)
	if len(f) > 0 {
		fmt.Fprintf(&b, " with %s", describe(f))
	}
	if len(page) == 0 {
		b.WriteString(": none after this cursor.\n")
	} else {
		fmt.Fprintf(&b, ", newest first; %d to %d:\n", from+1, from+len(page))
		writeItems(&b, out.Cases)
	}
	if out.NextCursor != "" {
		fmt.Fprintf(&b, "\nMore: call list_incidents again with the same filters and cursor %s.\n", strconv.Quote(out.NextCursor))
	}
	writeNotes(&b, out.Notes)
	return textResult(b.String()), out, nil
}

// lookup finds a case by an id argument.
func (m *model) lookup(arg string) (*cases.Case, error) {
	id := strings.ToUpper(strings.TrimSpace(arg))
	if c := m.lib.ByID[id]; c != nil {
		return c, nil
	}
	example := "IL-0495"
	if len(m.lib.Cases) > 0 {
		example = m.lib.Cases[0].ID
	}
	if !cases.IsID(id) {
		return nil, fmt.Errorf("id %s is not a case id: ids are two capital letters, a hyphen and 4 to 6 digits, such as %s; search_incidents and list_incidents give them", echo(arg), example)
	}
	ids := make([]string, len(m.lib.Cases))
	for i, c := range m.lib.Cases {
		ids[i] = c.ID
	}
	return nil, fmt.Errorf("no case %s in the library%s; search_incidents and list_incidents give the ids there are", id, cases.DidYouMean(id, ids))
}

func (s *Server) getIncident(_ context.Context, _ *mcp.CallToolRequest, in incidentInput) (*mcp.CallToolResult, incidentOutput, error) {
	var out incidentOutput
	m, err := s.ready()
	if err != nil {
		return nil, out, err
	}
	langs := cases.Languages
	if in.Lang != "" {
		lang, err := language(in.Lang, "")
		if err != nil {
			return nil, out, err
		}
		langs = []string{lang}
	}
	c, err := m.lookup(in.ID)
	if err != nil {
		return nil, out, err
	}
	out = incidentOutput{ID: c.ID, Org: c.Org, Date: c.Date.String(), Resource: caseURI(c.ID),
		Title: map[string]string{}, Pages: map[string]string{}, Markdown: map[string]string{}}
	var b strings.Builder
	for i, lang := range langs {
		out.Title[lang], _ = c.Title.In(lang)
		out.Pages[lang] = m.site.URL(urls.Case(lang, c.ID))
		md, err := api.CaseMarkdown(m.site, c, lang)
		if err != nil {
			return nil, out, err
		}
		out.Markdown[lang] = string(md)
		if i > 0 {
			b.WriteString("\n---\n\n")
		}
		b.WriteString(out.Markdown[lang])
		fmt.Fprintf(&b, "Page: %s\n", out.Pages[lang])
	}
	return textResult(b.String()), out, nil
}

func (s *Server) getTopic(_ context.Context, _ *mcp.CallToolRequest, in topicInput) (*mcp.CallToolResult, topicOutput, error) {
	var out topicOutput
	m, err := s.ready()
	if err != nil {
		return nil, out, err
	}
	lang, err := language(in.Lang, "en")
	if err != nil {
		return nil, out, err
	}
	facet, err := facetOf(in.Facet)
	if err != nil {
		return nil, out, err
	}
	term := strings.TrimSpace(in.Term)
	t := m.site.Facets()[facet].Topic(term)
	if t == nil {
		known := m.terms(facet)
		return nil, out, fmt.Errorf("unknown %s term %s%s; vocab with facet %s lists them", facet, echo(in.Term), cases.DidYouMean(term, known), strconv.Quote(facet))
	}
	out = m.topicOutput(t, facet, lang)
	return textResult(m.topicText(out, t, lang)), out, nil
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
				out[i].Label = m.site.Facets()["years"].Topic(tc.ID).Label.Get(lang)
			}
		}
		return out
	}
	out := topicOutput{Facet: facet, Argument: argName(facet), Term: t.ID, Count: len(t.Cases), URL: m.site.URL(urls.Topic(lang, facet, t.ID, 1))}
	out.Label, _ = t.Label.In(lang)
	if l, ok := m.labels[facet][t.ID]; ok && l[langIndex(lang)] != "" {
		out.Label = l[langIndex(lang)] // an organisation's Korean name
	}
	out.Description, _ = t.Description.In(lang)
	if intro, ok := m.lib.Topics[facet][t.ID]; ok {
		out.Intro, _ = intro.In(lang)
	}
	st := t.Stats()
	out.Stats = topicStats{
		Components: counts("components", st.Components), RootCauses: counts("root_cause", st.RootCauses),
		Contributing: counts("contributing", st.Contributing), Years: counts("", st.Years),
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
func (m *model) topicText(out topicOutput, t *site.Topic, lang string) string {
	str := m.site.Strings()
	st := t.Stats()
	facet := out.Facet
	var b strings.Builder
	fmt.Fprintf(&b, "# %s (%s: %s)\n\n%s · %s\n", out.Label, str.Get(lang, "facet."+facet), t.ID, l10n.Cases(lang, out.Count), out.URL)
	if out.Description != "" {
		fmt.Fprintf(&b, "\n%s\n", out.Description)
	}
	if out.Intro != "" {
		fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(out.Intro))
	}
	if out.Count > 0 {
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
		writeItems(&b, out.Cases)
	}
	if out.More > 0 {
		fmt.Fprintf(&b, "\n%d more: list_incidents with {%s: [%s]} lists them all.\n", out.More, strconv.Quote(out.Argument), strconv.Quote(t.ID))
	}
	return b.String()
}

func (s *Server) vocab(_ context.Context, _ *mcp.CallToolRequest, in vocabInput) (*mcp.CallToolResult, vocabOutput, error) {
	var out vocabOutput
	m, err := s.ready()
	if err != nil {
		return nil, out, err
	}
	facets := cases.Facets
	if in.Facet != "" {
		f, err := facetOf(in.Facet)
		if err != nil {
			return nil, out, err
		}
		facets = []string{f}
	}
	str := m.site.Strings()
	out.Facets = []vocabFacet{}
	var b strings.Builder
	for _, facet := range facets {
		vf := vocabFacet{Facet: facet, Argument: argName(facet), Name: map[string]string{}, Terms: []vocabTerm{}}
		for _, lang := range cases.Languages {
			vf.Name[lang] = str.Get(lang, "facet."+facet)
		}
		fc := m.site.Facets()[facet]
		for _, id := range m.terms(facet) {
			t := fc.Topic(id)
			vt := vocabTerm{ID: id, En: t.Label.En, Ko: t.Label.Ko, Cases: len(t.Cases)}
			if l, ok := m.labels[facet][id]; ok {
				vt.En, vt.Ko = l[0], l[1]
			}
			if !t.Description.IsZero() {
				vt.Description = map[string]string{"en": t.Description.En, "ko": t.Description.Ko}
			}
			vf.Terms = append(vf.Terms, vt)
		}
		out.Facets = append(out.Facets, vf)

		fmt.Fprintf(&b, "## %s / %s: facet %s, filter argument %s\n\n", vf.Name["en"], vf.Name["ko"], facet, vf.Argument)
		for _, t := range vf.Terms {
			fmt.Fprintf(&b, "- %s: %s / %s (%d)\n", t.ID, t.En, t.Ko, t.Cases)
		}
		b.WriteByte('\n')
	}
	b.WriteString("The number after each term is its number of cases.\n")
	return textResult(b.String()), out, nil
}

// readCase answers resources/read for incidentlib://cases/{ID}: the case's
// Markdown twin in both languages.
func (s *Server) readCase(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	m, err := s.ready()
	if err != nil {
		return nil, err
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
