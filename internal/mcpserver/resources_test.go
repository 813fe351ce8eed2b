package mcpserver

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestResourcesByLanguage reads cases, topics and the vocabulary as
// resources: one language with ?lang=, ids in any case, terms by label,
// each text the same as the tool's or the page's.
func TestResourcesByLanguage(t *testing.T) {
	srv, cs := sharedServer(t)
	m := srv.live.Current()
	ctx := context.Background()
	read := func(uri string) *mcp.ReadResourceResult {
		t.Helper()
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		return res
	}
	c := m.lib.ByID["IL-0495"]
	for _, uri := range []string{"incidentlib://cases/IL-0495?lang=ko", "incidentlib://cases/il-0495?lang=ko"} {
		res := read(uri)
		if len(res.Contents) != 1 || res.Contents[0].Text != string(must(m.caseMarkdown(c, "ko"))) {
			t.Errorf("%s: %d contents", uri, len(res.Contents))
		}
		if res.Contents[0].Meta["lastModified"] != c.UpdatedAt.UTC().Format(time.RFC3339) {
			t.Errorf("%s: lastModified %v", uri, res.Contents[0].Meta["lastModified"])
		}
	}
	topicText := callTool(t, cs, "get_topic", map[string]any{"facet": "components", "term": "ingress", "lang": "ko"}, &topicOutput{})
	for _, uri := range []string{"incidentlib://topics/components/ingress?lang=ko", "incidentlib://topics/components/" + url.PathEscape("인그레스 컨트롤러") + "?lang=ko"} {
		res := read(uri)
		if len(res.Contents) != 1 || !strings.HasPrefix(topicText, res.Contents[0].Text) {
			t.Errorf("%s: %d contents, not get_topic's text", uri, len(res.Contents))
		}
	}
	if res := read("incidentlib://topics/components/ingress"); len(res.Contents) != 2 {
		t.Errorf("topic in both languages: %d contents", len(res.Contents))
	}
	vocabText := callTool(t, cs, "vocab", map[string]any{"lang": "ko"}, &vocabOutput{})
	if res := read("incidentlib://vocab?lang=ko"); len(res.Contents) != 1 || res.Contents[0].Text != vocabText {
		t.Errorf("vocab?lang=ko is not vocab's answer")
	}
	for _, uri := range []string{"incidentlib://cases/IL-0495?lang=fr", "incidentlib://topics/components/nothing", "incidentlib://topics/../cases/IL-0495", "incidentlib://other/x"} {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("%s: no error", uri)
		}
	}
	// resources/list carries each case's lastModified; templates name ?lang.
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if id, ok := strings.CutPrefix(r.URI, caseURIPrefix); ok {
			if c := m.lib.ByID[id]; !c.UpdatedAt.IsZero() && (r.Annotations == nil || r.Annotations.LastModified != c.UpdatedAt.UTC().Format(time.RFC3339)) {
				t.Errorf("%s: annotations %+v", r.URI, r.Annotations)
			}
		}
	}
	var templates []string
	for rt, err := range cs.ResourceTemplates(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		templates = append(templates, rt.URITemplate)
	}
	if !sameSet(templates, []string{"incidentlib://cases/{id}{?lang}", "incidentlib://topics/{facet}/{term}{?lang}", "incidentlib://vocab{?lang}"}) {
		t.Errorf("templates %v", templates)
	}
}

// TestResourceLinks checks that search, list and topic answers link every
// case they list to its resource in the answer's language.
func TestResourceLinks(t *testing.T) {
	_, cs := sharedServer(t)
	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"search_incidents", map[string]any{"query": "인그레스"}},
		{"list_incidents", map[string]any{"lang": "ko"}},
		{"get_topic", map[string]any{"facet": "components", "term": "dns", "lang": "ko"}},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: call.tool, Arguments: call.args})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v", call.tool, err)
		}
		links := 0
		for _, c := range res.Content {
			if l, ok := c.(*mcp.ResourceLink); ok {
				links++
				id := strings.TrimSuffix(strings.TrimPrefix(l.URI, caseURIPrefix), "?lang=ko")
				if l.Name != id || !strings.Contains(resultText(res), id) {
					t.Errorf("%s: link %+v", call.tool, l)
				}
			}
		}
		if links == 0 {
			t.Errorf("%s: %d links", call.tool, links)
		}
	}
}

// TestIncidentBothLink checks that a case whose two pages do not fit in
// one answer links the second page's resource, and that it reads.
func TestIncidentBothLink(t *testing.T) {
	srv, cs := sharedServer(t)
	for _, c := range srv.live.Current().lib.Cases {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_incident", Arguments: map[string]any{"id": c.ID, "lang": "both"}})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v", c.ID, err)
		}
		if len(res.Content) == 1 {
			continue
		}
		l, ok := res.Content[1].(*mcp.ResourceLink)
		if !ok || l.URI != caseURIPrefix+c.ID+"?lang=ko" || !strings.Contains(resultText(res), l.URI) {
			t.Fatalf("%s: second content %+v", c.ID, res.Content[1])
		}
		rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: l.URI})
		if err != nil || len(rr.Contents) != 1 || !strings.HasPrefix(rr.Contents[0].Text, "# "+c.ID+": ") {
			t.Fatalf("%s: reading the link: %v", c.ID, err)
		}
		return
	}
	t.Error("no case's two pages were too long for one answer")
}
