package mcpserver

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
)

// Limits on what one call may ask for. A larger limit is capped, not
// refused, and the answer says so; a longer query is cut likewise. The caps
// keep every answer on the library under 20 KB (TestAnswerSizes), which
// Korean titles of a library of over a hundred cases reach at 20 results.
const (
	searchDefault = 10
	searchMax     = 15
	listDefault   = 15
	listMax       = 20
	maxQueryBytes = 500
	// echoRunes is how much of a bad argument an error message repeats.
	echoRunes = 40
)

// caseURIPrefix starts the URI of every case resource.
const caseURIPrefix = "incidentlib://cases/"

func caseURI(id string) string { return caseURIPrefix + id }

const langDesc = "language of the answer: en or ko; when absent, Korean for a query in Hangul and English otherwise"

// tool is a tool of the server: its declaration, its arguments and what
// answers it. run returns the text block and the structured content.
type tool struct {
	mcp    *mcp.Tool
	params []param
	run    func(m *model, c *call) (string, any, error)
}

// annotations say what every tool is: it only reads the library, and the
// same call gives the same answer until the content changes.
func annotations(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: jsonschema.Ptr(false)}
}

// tool declares a tool of the server with its annotations.
func declare(name, title, desc string, out *jsonschema.Schema) *mcp.Tool {
	return &mcp.Tool{Name: name, Title: title, Description: desc, OutputSchema: out, Annotations: annotations(title)}
}

func (s *Server) tools() []tool {
	return []tool{searchTool(), incidentTool(), listTool(), topicTool(), vocabTool(), sourceTool(), prepareTool()}
}

func searchTool() tool {
	return tool{
		mcp: declare("search_incidents", "Search incident post-mortems",
			"Search the library of public incident post-mortems (Kubernetes, cloud and networking outages) for cases like the one at hand, "+
				"ranked as the site's search ranks them. Use it when someone describes an outage, a symptom, an error or a component and asks whether it has happened before or how others fixed it. "+
				"The query may be English or Korean; both find cases in both languages, and a Korean query answers in Korean. Filters narrow the results: terms of one facet are ORed, facets ANDed; "+
				"a filter takes term ids from vocab, labels in either language or an organisation's name. "+
				"Returns the best cases with id, title, organisation, date, page URL and the query's words each has (and where); pass next_cursor back as cursor for more, counts: true for matches per term. "+
				"Call get_incident with an id for the whole case (also the resource incidentlib://cases/{id}).",
			outputSchema[searchOutput]()),
		params: append([]param{
			{name: "query", kind: kQuery, required: true, desc: "words to look for, in English or Korean (Korean with or without particles and spaces), such as 'ingress 404 after upgrade' or '로드 밸런서 헬스 체크'"},
			{name: "lang", kind: kLang, desc: langDesc},
			{name: "limit", kind: kInt, desc: "how many cases to return, best first: 10 by default, at most 15"},
			{name: "cursor", kind: kString, desc: "next_cursor of the previous answer, for the results after it"},
			{name: "counts", kind: kBool, desc: "true to add, for each filter argument, the number of matching cases per term"},
		}, append(filterParams(), versionParam)...),
		run: searchIncidents,
	}
}

func incidentTool() tool {
	return tool{
		mcp: declare("get_incident", "Get one incident case",
			"Get one case in full, as the Markdown of its page: summary, facts (impact level, severity where known, scope, time to detect and resolve), symptoms, root cause, trigger, components, "+
				"contributing factors, detection, remediation, action items, lessons, sources and related cases with the reason they are related. "+
				"id is a case id such as IL-0495 from search_incidents or list_incidents. lang is en (the default), ko, or both.",
			outputSchema[incidentOutput]()),
		params: []param{
			{name: "id", kind: kString, required: true, desc: "the case id, such as IL-0495, as search_incidents and list_incidents give it"},
			{name: "lang", kind: kLangBoth, desc: "language of the page: en (default), ko, or both for the two pages one after the other"},
		},
		run: getIncident,
	}
}

func listTool() tool {
	return tool{
		mcp: declare("list_incidents", "List incident cases",
			"List cases newest first, optionally filtered by facet terms (ids from vocab, or their labels): terms of one facet are ORed, facets ANDed, "+
				"for example every case of 2024 whose component is ingress or cloud-load-balancer. Pages hold 15 cases by default; pass next_cursor back as cursor for the next page. "+
				"Use search_incidents instead to find cases by words.",
			outputSchema[listOutput]()),
		params: append(filterParams(), versionParam,
			param{name: "lang", kind: kLang, desc: "language of titles and page URLs: en (default) or ko"},
			param{name: "limit", kind: kInt, desc: "cases per page: 15 by default, at most 20"},
			param{name: "cursor", kind: kString, desc: "next_cursor of the previous page, to get the page after it"},
		),
		run: listIncidents,
	}
}

func topicTool() tool {
	return tool{
		mcp: declare("get_topic", "Get a topic",
			"Get what the site's topic page shows for one term of a facet, such as components/ingress or root-causes/software-bug: "+
				"its introduction, statistics of its cases (most common components, root causes and contributing factors, cases per year, median time to detect and to resolve) and its newest cases. "+
				"Use it to see the pattern across cases that share a component, cause or organisation.",
			topicSchema()),
		params: []param{
			{name: "facet", kind: kFacet, required: true, desc: "one of " + strings.Join(cases.FacetNames(), ", ") + " (root_causes also works)"},
			{name: "term", kind: kTerm, required: true, desc: "a term of that facet: its id, such as ingress, software-bug, google-cloud or 2024 (a year may be a number; see vocab), or its label in English or Korean"},
			{name: "lang", kind: kLang, desc: "language of the answer: en (default) or ko"},
		},
		run: getTopic,
	}
}

func vocabTool() tool {
	return tool{
		mcp: declare("vocab", "List the vocabularies",
			"List every facet's terms (components, symptoms, root causes, contributing factors, domains, organisations, years, impact levels, severities) with their ids, "+
				"English and Korean labels, descriptions (in the language asked for, when one facet is asked for) and number of cases. The ids are what the filters of search_incidents and list_incidents and the term of get_topic take.",
			outputSchema[vocabOutput]()),
		params: []param{
			{name: "facet", kind: kFacet, desc: "only this facet (" + orList(cases.FacetNames()) + "); every facet when absent"},
			{name: "lang", kind: kLang, desc: "language of the answer's sentences and headings: en (default) or ko; labels come in both"},
		},
		run: vocab,
	}
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
		content := append([]mcp.Content{&mcp.TextContent{Text: b.String()}}, caseLinks(data, c.lang)...)
		return &mcp.CallToolResult{Content: content, StructuredContent: data}, nil
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

// ready returns the model to answer from: the current one, or while the
// content has errors the last one that loaded, with a note saying so
// (degraded.go); an error only when the content never loaded.
func (s *Server) ready(c *call) (*model, error) {
	m, errs := s.serving()
	if m == nil {
		return nil, s.contentErrors(c, s.live.Current())
	}
	if errs > 0 {
		if errs == 1 {
			c.note("note.degraded.one")
		} else {
			c.note("note.degraded.other", l10n.Number(errs))
		}
	}
	return m, nil
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
