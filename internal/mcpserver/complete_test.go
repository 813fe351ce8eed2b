package mcpserver

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestComplete completes prompt arguments and resource template
// variables: case ids, facets, terms (by id or label, within the facet
// given) and languages.
func TestComplete(t *testing.T) {
	srv, cs := sharedServer(t)
	m := srv.live.Current()
	prompt := func(name string) *mcp.CompleteReference {
		return &mcp.CompleteReference{Type: "ref/prompt", Name: name}
	}
	template := func(uri string) *mcp.CompleteReference { return &mcp.CompleteReference{Type: "ref/resource", URI: uri} }
	for _, tt := range []struct {
		ref         *mcp.CompleteReference
		arg, value  string
		given       map[string]string
		want        []string // among the values
		allPrefixed string   // every value starts with it
	}{
		{prompt("review_cluster"), "component", "ing", nil, []string{"ingress"}, ""},
		{prompt("review_cluster"), "component", "인그", nil, []string{"ingress"}, ""},
		{prompt("review_cluster"), "component", "", nil, []string{"ingress", "dns", "etcd"}, ""},
		{prompt("similar_incidents"), "incident", "il-04", nil, []string{"IL-0495"}, "IL-04"},
		{prompt("summarise_topic"), "facet", "ro", nil, []string{"root-causes"}, "ro"},
		{prompt("summarise_topic"), "term", "hub", map[string]string{"facet": "orgs"}, []string{"hubspot"}, ""},
		{prompt("summarise_topic"), "term", "soft", map[string]string{"facet": "root_causes"}, []string{"software-bug"}, ""},
		{prompt("summarise_topic"), "lang", "k", nil, []string{"ko"}, "ko"},
		{template("incidentlib://cases/{id}{?lang}"), "id", "IL-06", nil, []string{"IL-0654"}, "IL-06"},
		{template("incidentlib://topics/{facet}/{term}{?lang}"), "term", "sev", map[string]string{"facet": "severities"}, []string{"sev1"}, "sev"},
	} {
		p := &mcp.CompleteParams{Ref: tt.ref, Argument: mcp.CompleteParamsArgument{Name: tt.arg, Value: tt.value}}
		if tt.given != nil {
			p.Context = &mcp.CompleteContext{Arguments: tt.given}
		}
		res, err := cs.Complete(context.Background(), p)
		if err != nil {
			t.Fatalf("%s %q: %v", tt.arg, tt.value, err)
		}
		got := res.Completion.Values
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s %q %v: %v lacks %s", tt.arg, tt.value, tt.given, got, w)
			}
		}
		for _, v := range got {
			if !strings.HasPrefix(v, tt.allPrefixed) {
				t.Errorf("%s %q: %s does not start with %q", tt.arg, tt.value, v, tt.allPrefixed)
			}
		}
		if len(got) > maxCompletions || res.Completion.Total < len(got) || res.Completion.HasMore != (res.Completion.Total > len(got)) {
			t.Errorf("%s %q: %d values, total %d, has more %v", tt.arg, tt.value, len(got), res.Completion.Total, res.Completion.HasMore)
		}
	}
	res, err := cs.Complete(context.Background(), &mcp.CompleteParams{Ref: prompt("similar_incidents"), Argument: mcp.CompleteParamsArgument{Name: "incident", Value: ""}})
	if err != nil || len(m.lib.Cases) > maxCompletions && !res.Completion.HasMore {
		t.Errorf("every id: %v %+v", err, res)
	}
}
