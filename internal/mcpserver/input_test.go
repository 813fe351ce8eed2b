package mcpserver

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestBadInput sends every kind of bad argument to every tool: each must
// come back as a tool error that says what was wrong and what is allowed.
func TestBadInput(t *testing.T) {
	_, cs := sharedServer(t)
	tests := []struct {
		tool string
		args map[string]any
		want []string // all in the message
	}{
		{"get_incident", map[string]any{"id": "../../etc/passwd"}, []string{`"../../etc/passwd" is not a case id`, "such as IL-"}},
		{"get_incident", map[string]any{"id": "/etc/passwd"}, []string{"is not a case id"}},
		{"get_incident", map[string]any{"id": "IL-0495.json"}, []string{"is not a case id"}},
		{"get_incident", map[string]any{"id": "IL-0496"}, []string{"no case IL-0496", `did you mean "IL-0495"?`}},
		{"get_incident", map[string]any{"id": "IL-9999"}, []string{"no case IL-9999", "search_incidents and list_incidents give the ids"}},
		{"get_incident", map[string]any{"id": strings.Repeat("x", 5000)}, []string{"is not a case id", "…"}},
		{"get_incident", map[string]any{}, []string{"id"}},
		{"get_incident", map[string]any{"id": 495}, []string{"id", "string"}},
		{"get_incident", map[string]any{"id": "IL-0495", "lang": "fr"}, []string{"lang", "en", "ko"}},
		{"search_incidents", map[string]any{"query": ""}, []string{"query is empty", "list_incidents"}},
		{"search_incidents", map[string]any{"query": "  \t "}, []string{"query is empty"}},
		{"search_incidents", map[string]any{}, []string{"query"}},
		{"search_incidents", map[string]any{"query": 42}, []string{"query", "string"}},
		{"search_incidents", map[string]any{"query": "dns", "limit": "ten"}, []string{"limit must be a whole number from 1", `not the string "ten"`}},
		{"search_incidents", map[string]any{"query": "dns", "limit": -5}, []string{"limit must be a whole number from 1", "not the number -5"}},
		{"search_incidents", map[string]any{"query": "dns", "components": []any{"ingres"}}, []string{`components: unknown term "ingres"`, `did you mean "ingress"?`, "vocab"}},
		{"search_incidents", map[string]any{"query": "dns", "root_causes": []any{"software_bugs"}}, []string{`root_causes: unknown term "software_bugs"`, `did you mean "software-bug"?`}},
		{"search_incidents", map[string]any{"query": "dns", "page": 2}, []string{"page is not an argument of search_incidents", "it takes query, lang, limit, cursor"}},
		{"search_incidents", map[string]any{"query": "dns", "cursor": "ten"}, []string{`cursor "ten" is not one this server gave`}},
		{"search_incidents", map[string]any{"query": "dns", "counts": "yes"}, []string{"counts must be true or false", `not the string "yes"`}},
		{"list_incidents", map[string]any{"component": []any{"ingress"}, "components": []any{"dns"}}, []string{"component is not an argument of list_incidents", `(did you mean "components"?)`}},
		{"list_incidents", map[string]any{"nodes": []any{"x"}, "tags": []any{"y"}}, []string{"nodes, tags are not arguments of list_incidents", "it takes components, symptoms"}},
		{"list_incidents", map[string]any{"domains": []any{"googel"}}, []string{`domains: unknown term "googel"`}},
		{"list_incidents", map[string]any{"cursor": "page-2"}, []string{`cursor "page-2" is not one this server gave`, "next_cursor"}},
		{"list_incidents", map[string]any{"cursor": "../../etc/passwd@1.1.1"}, []string{"is not one this server gave"}},
		{"list_incidents", map[string]any{"lang": "jp"}, []string{"lang", "en", "ko"}},
		{"list_incidents", map[string]any{"limit": 2.5}, []string{"limit must be a whole number", "not the number 2.5"}},
		{"get_topic", map[string]any{"facet": "component", "term": "ingress"}, []string{`Unknown facet "component"`, `did you mean "components"?`, "root-causes"}},
		{"get_topic", map[string]any{"facet": "../../etc", "term": "passwd"}, []string{`Unknown facet "../../etc"`, "facets are components"}},
		{"get_topic", map[string]any{"facet": "components", "term": "ingres"}, []string{`term: unknown term "ingres"`, `did you mean "ingress"?`, "vocab"}},
		{"get_topic", map[string]any{"facet": "components", "term": "../../../etc/passwd"}, []string{"unknown term"}},
		{"get_topic", map[string]any{"facet": "components"}, []string{"term"}},
		{"vocab", map[string]any{"facet": "rootcauses"}, []string{`Unknown facet "rootcauses"`, `did you mean "root-causes"?`}},
		{"vocab", map[string]any{"facet": []any{"orgs"}}, []string{"facet", "string"}},
	}
	for _, tt := range tests {
		msg := callErr(t, cs, tt.tool, tt.args)
		for _, w := range tt.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s %v: %q lacks %q", tt.tool, tt.args, msg, w)
			}
		}
		for _, internal := range []string{"reflect", "<invalid", "of type", "float64", "[]string", "Input.", "%!", "validating"} {
			if strings.Contains(msg, internal) {
				t.Errorf("%s %v: %q shows the server's internals (%q)", tt.tool, tt.args, msg, internal)
			}
		}
		if len(msg) > 1000 {
			t.Errorf("%s %v: message of %d bytes", tt.tool, tt.args, len(msg))
		}
	}
}

// TestCaps checks that a huge limit is capped and a huge query cut, with a
// note, and neither is an error.
func TestCaps(t *testing.T) {
	_, cs := sharedServer(t)
	var list listOutput
	text := callTool(t, cs, "list_incidents", map[string]any{"limit": 1e9}, &list)
	if len(list.Cases) != min(listMax, list.Total) || len(list.Notes) != 1 || !strings.Contains(text, fmt.Sprintf("limit 1,000,000,000 is more than the %d allowed, so %d cases are returned", listMax, listMax)) {
		t.Errorf("limit 1e9: %d cases, notes %v", len(list.Cases), list.Notes)
	}
	var s searchOutput
	callTool(t, cs, "search_incidents", map[string]any{"query": "ingress", "limit": 1e9}, &s)
	if len(s.Notes) != 1 || !strings.Contains(s.Notes[0], fmt.Sprintf("%d allowed", searchMax)) {
		t.Errorf("search limit 1e9: notes %v", s.Notes)
	}
	long := "ingress 로드밸런서가"
	for i := 0; len(long) < 10<<10; i++ {
		long += fmt.Sprintf(" w%d", i) // over 10 KB, and many different words
	}
	if len(long) < 10<<10 {
		t.Fatal("the long query is short")
	}
	text = callTool(t, cs, "search_incidents", map[string]any{"query": long, "lang": "en"}, &s)
	if len(s.Query) > maxQueryBytes || !utf8.ValidString(s.Query) || !strings.HasPrefix(long, s.Query) || s.Total == 0 {
		t.Errorf("long query searched as %d bytes (%d found)", len(s.Query), s.Total)
	}
	if !strings.Contains(text, "only its first") || !strings.Contains(text, "more than 20 words") {
		t.Errorf("no note of the cuts in %q", text)
	}
}
