package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/cases"
	"incidentlib/internal/mcpserver"
)

// TestOneMoreFacet proves that a facet is one row of the facet table: it
// declares a facet in the table alone ("tools", which cases list as they
// list components) and builds a library whose cases use it. Its facet and
// topic pages must be written and linked from the header, the search index
// must have its filter, the JSON API its topics, and the MCP tools must take
// it as a filter and list it in their input schemas. A consumer that keeps a
// list or a switch of its own instead of reading the table fails here.
func TestOneMoreFacet(t *testing.T) {
	tools := &cases.Facet{
		Name: "tools", Field: "tools", Kind: cases.Many, Controlled: true,
		Doc:       "Tool term ids.",
		Label:     cases.Bilingual{En: "Tools", Ko: "도구"},
		One:       cases.Bilingual{En: "Tool", Ko: "도구"},
		Intro:     cases.Bilingual{En: "The tools the responders used, with the number of cases.", Ko: "대응한 사람들이 쓴 도구를 사례 수와 함께 보여 줍니다."},
		Top:       cases.Bilingual{En: "Most used tools", Ko: "가장 많이 쓰인 도구"},
		FilterDoc: "tool term ids, such as kubectl",
		Show:      cases.InNav | cases.InSearch | cases.InStats,
	}
	defer cases.ReplaceFacets(append(slices.Clone(cases.Facets), tools))()

	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join("..", "..", "content", "site.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "site.json"), b, 0o644)
	var vocab map[string]any
	readJSON(t, filepath.Join("..", "..", "content", "vocab.json"), &vocab)
	vocab["tools"] = []any{
		map[string]any{"id": "kubectl", "en": "kubectl", "ko": "kubectl"},
		map[string]any{"id": "terraform", "en": "Terraform", "ko": "테라폼"},
	}
	writeJSON(t, filepath.Join(dir, "vocab.json"), vocab)
	os.Mkdir(filepath.Join(dir, "cases"), 0o755)
	uses := map[string][]string{"IL-0495": {"kubectl"}, "IL-0062": {"kubectl", "terraform"}, "IL-0202": {}}
	for id, ts := range uses {
		var c map[string]any
		readJSON(t, filepath.Join("..", "..", "content", "cases", id+".json"), &c)
		c["tools"], c["related"], c["recurrence_of"] = ts, []any{}, nil
		writeJSON(t, filepath.Join(dir, "cases", id+".json"), c)
	}

	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "-strict", "-content", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("check -strict: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	out := filepath.Join(t.TempDir(), "public")
	if code := run([]string{"build", "-content", dir, "-out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("build: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		return string(b)
	}

	// Pages: the facet's own, a topic per term with cases, in both
	// languages, named by the table's labels and linked from the header.
	for _, lang := range cases.Languages {
		label := tools.Label.Get(lang)
		if page := read(lang + "/tools/index.html"); !strings.Contains(page, tools.Intro.Get(lang)) || !strings.Contains(page, label) {
			t.Errorf("%s/tools/: no intro or label %q", lang, label)
		}
		if page := read(lang + "/tools/kubectl/index.html"); !strings.Contains(page, "IL-0495") || !strings.Contains(page, "IL-0062") {
			t.Errorf("%s/tools/kubectl/: does not list its two cases", lang)
		}
		read(lang + "/tools/terraform/index.html")
		// Another facet's topic counts the tools in its statistics.
		if page := read(lang + "/components/ingress/index.html"); !strings.Contains(page, tools.Top.Get(lang)) {
			t.Errorf("%s/components/ingress/: no statistics of tools", lang)
		}
		// Links are written from the folder the pages share.
		if home := read(lang + "/index.html"); !strings.Contains(home, `href="tools/">`+label+`</a>`) {
			t.Errorf("%s/: the header does not link the facet", lang)
		}
	}
	// The case page shows the terms, as it must every field of a case, and
	// so does its Markdown twin.
	if page := read("ko/cases/IL-0062/index.html"); !strings.Contains(page, `<h2>도구</h2>`) || !strings.Contains(page, `href="../../tools/terraform/">테라폼</a>`) {
		t.Errorf("ko/cases/IL-0062/: no section of tools linking their topics")
	}
	if md := read("en/cases/IL-0062/index.md"); !strings.Contains(md, "\n## Tools\n\nkubectl, Terraform\n") {
		t.Errorf("the Markdown twin of IL-0062 does not list its tools")
	}
	if page := read("en/cases/IL-0202/index.html"); strings.Contains(page, `id="facet-tools"`) {
		t.Errorf("IL-0202 lists no tool but its page has a section of tools")
	}

	// The search index: the facet's file, and its filter with its labels in
	// the manifest, after the table's other facets.
	var manifest struct {
		Facets  []string `json:"facets"`
		Filters []struct {
			Name  string    `json:"name"`
			Label [2]string `json:"l"`
		} `json:"filters"`
	}
	if err := json.Unmarshal([]byte(read("search/manifest.json")), &manifest); err != nil {
		t.Fatal(err)
	}
	if n := len(manifest.Filters); n == 0 || manifest.Filters[n-1].Name != "tools" || manifest.Filters[n-1].Label != [2]string{"Tool", "도구"} {
		t.Errorf("manifest filters = %+v, want tools last", manifest.Filters)
	}
	if !slices.Contains(manifest.Facets, "tools") {
		t.Errorf("manifest facets = %v, want tools", manifest.Facets)
	}
	if f := read("search/f/tools.json"); !strings.Contains(f, `"id":"kubectl"`) {
		t.Errorf("search/f/tools.json = %s", f)
	}

	// The JSON API: the vocabulary, the topics and the case list.
	if v := read("api/v1/vocab.json"); !strings.Contains(v, `"tools":[{"id":"kubectl"`) {
		t.Errorf("api vocab.json has no tools")
	}
	if v := read("api/v1/topics/tools/kubectl.json"); !strings.Contains(v, `"facet":"tools"`) {
		t.Errorf("api topic = %s", v)
	}
	if v := read("api/v1/topics/components/ingress.json"); !strings.Contains(v, `"tools":[{"id":"kubectl"`) {
		t.Errorf("api topic components/ingress has no statistics of tools: %s", v)
	}
	if v := read("api/v1/cases.json"); !strings.Contains(v, `"tools":["kubectl","terraform"]`) {
		t.Errorf("api cases.json does not list IL-0062's tools")
	}

	// The MCP tools: the filter in the input schemas, and at work.
	srv, err := mcpserver.New(mcpserver.Options{Content: dir})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Wait() }()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	filtered := 0
	for _, tool := range list.Tools {
		if tool.Name != "search_incidents" && tool.Name != "list_incidents" {
			continue
		}
		filtered++
		schema, _ := json.Marshal(tool.InputSchema)
		if !strings.Contains(string(schema), `"tools":{`) || !strings.Contains(string(schema), tools.FilterDoc) {
			t.Errorf("%s input schema has no tools filter: %s", tool.Name, schema)
		}
	}
	if filtered != 2 {
		t.Errorf("%d filtering tools found, want 2", filtered)
	}
	call := func(args map[string]any) (*mcp.CallToolResult, map[string]any) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_incidents", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &out)
		return res, out
	}
	if res, out := call(map[string]any{"tools": []string{"terraform"}}); res.IsError || out["total"] != 1.0 {
		t.Errorf("list_incidents tools=terraform: %+v", out)
	}
	if res, out := call(map[string]any{"tools": []string{"kubectl"}, "lang": "ko"}); res.IsError || out["total"] != 2.0 {
		t.Errorf("list_incidents tools=kubectl: %+v", out)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_incident", Arguments: map[string]any{"id": "IL-0062"}})
	if err != nil || res.IsError || len(res.Content) == 0 {
		t.Fatalf("get_incident: %v %+v", err, res)
	}
	if text, _ := res.Content[0].(*mcp.TextContent); text == nil || !strings.Contains(text.Text, "kubectl, Terraform") {
		t.Errorf("get_incident IL-0062 does not name its tools")
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_topic", Arguments: map[string]any{"facet": "components", "term": "ingress"}})
	if err != nil || res.IsError {
		t.Fatalf("get_topic: %v %+v", err, res)
	}
	b, _ = json.Marshal(res.StructuredContent)
	if !strings.Contains(string(b), `"tools":[{"cases":2,"id":"kubectl","label":"kubectl"},{"cases":1,"id":"terraform"`) {
		t.Errorf("get_topic components/ingress has no statistics of tools: %s", b)
	}
	for _, tool := range list.Tools {
		if schema, _ := json.Marshal(tool.OutputSchema); tool.Name == "get_topic" && !strings.Contains(string(schema), `"tools":{`) {
			t.Errorf("get_topic's output schema has no statistics of tools")
		}
	}
	if res, _ := call(map[string]any{"tools": []string{"kubctl"}}); !res.IsError {
		t.Errorf("list_incidents took an unknown tool term")
	}
}

func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func writeJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
