package mcpserver

import (
	"context"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/cases"
)

// maxCompletions is the most values completion/complete returns, as the
// protocol allows.
const maxCompletions = 100

// complete answers completion/complete for the prompts' arguments and the
// resource templates' variables: case ids, facet names, the terms of a
// facet (by id, or by a label's start in either language) and languages.
// A term's facet comes from the facet argument already given, or the
// argument's own name (component); without one, terms of every facet.
func (s *Server) complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	p := req.Params
	var given map[string]string
	if p.Context != nil {
		given = p.Context.Arguments
	}
	m, _ := s.serving() // the last library that loaded while the content has errors
	var values []string
	if m != nil {
		values = m.completions(p.Argument.Name, p.Argument.Value, given)
	}
	res := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{}, Total: len(values)}}
	if len(values) > maxCompletions {
		values, res.Completion.HasMore = values[:maxCompletions], true
	}
	res.Completion.Values = append(res.Completion.Values, values...)
	return res, nil
}

// completions are the values of argument name that start with prefix.
func (m *model) completions(name, prefix string, given map[string]string) []string {
	prefix = strings.ToLower(strings.TrimSpace(prefix))
	var out []string
	add := func(v string, also ...string) {
		for _, s := range append([]string{v}, also...) {
			if strings.HasPrefix(strings.ToLower(s), prefix) && !slices.Contains(out, v) {
				out = append(out, v)
				return
			}
		}
	}
	switch name {
	case "id", "incident":
		for _, c := range m.lib.Cases {
			add(c.ID)
		}
		slices.Sort(out)
	case "facet":
		for _, f := range cases.FacetNames() {
			add(f)
		}
	case "lang":
		add("en")
		add("ko")
	case "term", "component":
		facets := cases.FacetNames()
		if f, err := facetOf(&call{lang: "en"}, given["facet"]); err == nil {
			facets = []string{f}
		} else if name == "component" {
			facets = []string{cases.Components.Name}
		}
		for _, f := range facets {
			for _, id := range m.terms(f) {
				l := m.labels[f][id]
				add(id, l[0], l[1])
			}
		}
	}
	return out
}
