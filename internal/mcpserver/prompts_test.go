package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestPrompts gets each prompt in both languages, with arguments given by
// id and by label, and checks that bad arguments are refused.
func TestPrompts(t *testing.T) {
	_, cs := sharedServer(t)
	ctx := context.Background()
	res, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range res.Prompts {
		names = append(names, p.Name)
		if p.Title == "" || p.Description == "" {
			t.Errorf("%s: no title or description", p.Name)
		}
	}
	if !sameSet(names, []string{"review_cluster", "similar_incidents", "summarise_topic"}) {
		t.Errorf("prompts %v", names)
	}
	for _, tt := range []struct {
		name string
		args map[string]string
		want []string
	}{
		{"review_cluster", map[string]string{"component": "ingress"}, []string{"Ingress controller", `term "ingress"`, `lang "en"`}},
		{"review_cluster", map[string]string{"component": "인그레스"}, []string{"인그레스 컨트롤러 관련 위험", `term "ingress"`, `lang "ko"`}},
		{"similar_incidents", map[string]string{"incident": "il-0495"}, []string{"IL-0495", "HubSpot's internal load balancers", `id "IL-0495"`}},
		{"similar_incidents", map[string]string{"incident": "IL-0495", "lang": "ko"}, []string{"사례 IL-0495(", "get_incident를"}},
		{"similar_incidents", map[string]string{"incident": "ingress returns 502 after a node pool upgrade"}, []string{"ingress returns 502 after a node pool upgrade", "search_incidents"}},
		{"summarise_topic", map[string]string{"facet": "root_causes", "term": "Software defect"}, []string{"Software defect", `facet "root-causes"`, `term "software-bug"`}},
		{"summarise_topic", map[string]string{"facet": "orgs", "term": "영국 법무부"}, []string{"영국 법무부 사례들", `term "uk-ministry-of-justice"`}},
	} {
		res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: tt.name, Arguments: tt.args})
		if err != nil {
			t.Errorf("%s %v: %v", tt.name, tt.args, err)
			continue
		}
		if len(res.Messages) != 1 || res.Messages[0].Role != "user" {
			t.Fatalf("%s: %d messages", tt.name, len(res.Messages))
		}
		text := res.Messages[0].Content.(*mcp.TextContent).Text
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s %v: %q lacks %q", tt.name, tt.args, text, w)
			}
		}
	}
	for _, tt := range []struct {
		name string
		args map[string]string
		want string
	}{
		{"review_cluster", map[string]string{}, "The argument component is required by the prompt review_cluster."},
		{"review_cluster", map[string]string{"component": "ingres"}, `did you mean "ingress"?`},
		{"review_cluster", map[string]string{"component": "인그래스"}, "알 수 없는 용어입니다"},
		{"summarise_topic", map[string]string{"facet": "colour", "term": "red"}, `Unknown facet "colour"`},
		{"similar_incidents", map[string]string{"incident": "x", "lang": "fr"}, `lang "fr" is not a language of the library`},
	} {
		_, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: tt.name, Arguments: tt.args})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %v: %v, want %q", tt.name, tt.args, err, tt.want)
		}
	}
}
