package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/cases"
	"incidentlib/internal/repotest"
	"incidentlib/internal/site"
	"incidentlib/internal/urls"
)

// connect serves the library in dir to a client over the SDK's in-memory
// transport.
func connect(t testing.TB, dir string) (*Server, *mcp.ClientSession) {
	t.Helper()
	srv, err := New(Options{Content: dir})
	if err != nil {
		t.Fatal(err)
	}
	return srv, connectTo(t, srv)
}

func connectTo(t testing.TB, srv *Server) *mcp.ClientSession {
	t.Helper()
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
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// shared is one server over the repository's content for the tests that
// only read.
var shared struct {
	srv *Server
	cs  *mcp.ClientSession
}

func sharedServer(t *testing.T) (*Server, *mcp.ClientSession) {
	t.Helper()
	if shared.srv == nil {
		srv, err := New(Options{Content: repotest.Dir(t, "content")})
		if err != nil {
			t.Fatal(err)
		}
		st, ct := mcp.NewInMemoryTransports()
		if _, err := srv.MCP().Connect(context.Background(), st, nil); err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		shared.srv, shared.cs = srv, cs
	}
	return shared.srv, shared.cs
}

// call calls a tool that must succeed, decodes its structured content into
// out and returns its text.
func callTool(t testing.TB, cs *mcp.ClientSession, tool string, args map[string]any, out any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	text := resultText(res)
	if res.IsError {
		t.Fatalf("%s %v: tool error: %s", tool, args, text)
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("%s: structured content %s: %v", tool, data, err)
	}
	checkOutput(t, tool, data)
	return text
}

// callErr calls a tool that must answer with a tool error and returns its
// message.
func callErr(t testing.TB, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: protocol error %v, want a tool error", tool, args, err)
	}
	if !res.IsError {
		t.Fatalf("%s %v: no error; answered %s", tool, args, resultText(res))
	}
	return resultText(res)
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// wantArgs are the argument names of every tool, as issue #14 names them.
var wantArgs = map[string][]string{
	"search_incidents": {"query", "lang", "limit", "cursor", "counts", "components", "symptoms", "root_causes", "contributing", "domains", "orgs", "years", "products", "impact_levels", "version"},
	"get_incident":     {"id", "lang"},
	"list_incidents":   {"components", "symptoms", "root_causes", "contributing", "domains", "orgs", "years", "products", "impact_levels", "version", "lang", "limit", "cursor"},
	"get_topic":        {"facet", "term", "lang"},
	"vocab":            {"facet", "lang"},
	"prepare":          {"components", "products", "lang", "limit"},
	"find_by_source":   {"url", "lang"},
}

var wantRequired = map[string][]string{
	"search_incidents": {"query"}, "get_incident": {"id"}, "get_topic": {"facet", "term"}, "find_by_source": {"url"},
}

func TestToolList(t *testing.T) {
	_, cs := sharedServer(t)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, tool := range res.Tools {
		got[tool.Name] = true
		want, ok := wantArgs[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		if len(tool.Description) < 200 {
			t.Errorf("%s: description too short for a model to act on: %q", tool.Name, tool.Description)
		}
		var in struct {
			Type                 string                     `json:"type"`
			Properties           map[string]json.RawMessage `json:"properties"`
			Required             []string                   `json:"required"`
			AdditionalProperties *bool                      `json:"additionalProperties"`
		}
		data, _ := json.Marshal(tool.InputSchema)
		if err := json.Unmarshal(data, &in); err != nil {
			t.Fatal(err)
		}
		var names []string
		for name, p := range in.Properties {
			names = append(names, name)
			if !strings.Contains(string(p), `"description"`) {
				t.Errorf("%s: argument %s has no description", tool.Name, name)
			}
		}
		if !sameSet(names, want) {
			t.Errorf("%s: arguments %v, want %v", tool.Name, names, want)
		}
		if !sameSet(in.Required, wantRequired[tool.Name]) {
			t.Errorf("%s: required %v, want %v", tool.Name, in.Required, wantRequired[tool.Name])
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s: no output schema", tool.Name)
		}
	}
	for name := range wantArgs {
		if !got[name] {
			t.Errorf("tool %s missing", name)
		}
	}
	// The site names the same tools on the API page and case pages.
	if !sameSet(site.MCPTools, slices.Collect(maps.Keys(got))) {
		t.Errorf("site.MCPTools %v, the server has %v", site.MCPTools, got)
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestFilterParams holds the filter arguments to the one list of facets.
func TestFilterParams(t *testing.T) {
	var names, want []string
	for _, p := range filterParams() {
		names = append(names, p.name)
		if p.kind != kTerms || !strings.Contains(p.desc, " ") {
			t.Errorf("filter %s: kind %d, description %q", p.name, p.kind, p.desc)
		}
	}
	for _, f := range cases.Facets {
		if f.Shows(cases.InSearch) {
			want = append(want, f.Arg())
		}
	}
	if !slices.Equal(names, want) {
		t.Errorf("filter arguments %v, want %v (cases.Facets that show InSearch, in order)", names, want)
	}
}

// termsOf is what a case carries in a facet, read from the case itself:
// the reference the filters are checked against.
func termsOf(c *cases.Case, facet string) []string {
	switch facet {
	case "components":
		return c.Components
	case "symptoms":
		return c.Symptoms
	case "root-causes":
		return []string{c.RootCause}
	case "contributing":
		return c.Contributing
	case "domains":
		return c.Domain
	case "orgs":
		return []string{c.OrgSlug}
	case "years":
		if !c.Date.Known() {
			return nil // a case whose source gives no date is under no year
		}
		return []string{strconv.Itoa(c.Date.Year)}
	case "severities":
		return []string{c.Severity}
	case "products":
		return c.Products
	case "impact-levels":
		if c.ImpactLevel == "" {
			return nil
		}
		return []string{c.ImpactLevel}
	}
	panic(facet)
}

// pages calls list_incidents page by page to the end.
func pages(t *testing.T, cs *mcp.ClientSession, args map[string]any) (ids []string, outs []listOutput) {
	t.Helper()
	cursor := ""
	for n := 0; ; n++ {
		a := map[string]any{}
		for k, v := range args {
			a[k] = v
		}
		if cursor != "" {
			a["cursor"] = cursor
		}
		var out listOutput
		text := callTool(t, cs, "list_incidents", a, &out)
		for _, it := range out.Cases {
			ids = append(ids, it.ID)
			for _, part := range []string{it.ID, it.Title, it.Org, it.URL} { // the date: TestKoreanOrgNames
				if !strings.Contains(text, part) {
					t.Errorf("list_incidents text lacks %q:\n%s", part, text)
				}
			}
		}
		outs = append(outs, out)
		if out.NextCursor == "" {
			return ids, outs
		}
		if !strings.Contains(text, out.NextCursor) {
			t.Errorf("the text does not give the cursor %s", out.NextCursor)
		}
		if n > 1000 {
			t.Fatal("pagination does not end")
		}
		cursor = out.NextCursor
	}
}

func TestListPagination(t *testing.T) {
	srv, cs := sharedServer(t)
	lib := srv.live.Current().lib
	var want []string
	for _, c := range lib.Cases {
		want = append(want, c.ID)
	}
	for _, lang := range []string{"en", "ko"} {
		for _, size := range []int{1, 3, 5, 100} {
			ids, outs := pages(t, cs, map[string]any{"lang": lang, "limit": size})
			if !slices.Equal(ids, want) {
				t.Errorf("%s, %d a page: %v, want %v", lang, size, ids, want)
			}
			if wantPages := (len(want) + min(size, listMax) - 1) / min(size, listMax); len(outs) != wantPages {
				t.Errorf("%s, %d a page: %d pages, want %d", lang, size, len(outs), wantPages)
			}
			for _, out := range outs {
				if out.Total != len(want) {
					t.Errorf("total %d, want %d", out.Total, len(want))
				}
			}
			first := outs[0].Cases[0]
			c := lib.ByID[first.ID]
			if title, _ := c.Title.In(lang); first.Title != title || first.URL != srv.live.Current().site.URL(urls.Case(lang, c.ID)) {
				t.Errorf("%s: first case %+v", lang, first)
			}
		}
	}
}

// TestListFilters filters by every term of every facet, then by two terms
// of one facet (ORed) and by two facets (ANDed), and checks each answer
// against the cases' own fields.
func TestListFilters(t *testing.T) {
	srv, cs := sharedServer(t)
	m := srv.live.Current()
	expect := func(filters map[string][]string) []string {
		var ids []string
		for _, c := range m.lib.Cases {
			ok := true
			for facet, terms := range filters {
				ok = ok && slices.ContainsFunc(termsOf(c, facet), func(s string) bool { return slices.Contains(terms, s) })
			}
			if ok {
				ids = append(ids, c.ID)
			}
		}
		return ids
	}
	run := func(filters map[string][]string) []string {
		args := map[string]any{"limit": 4}
		for facet, terms := range filters {
			args[argName(facet)] = terms
		}
		ids, _ := pages(t, cs, args)
		if want := expect(filters); !slices.Equal(ids, want) {
			t.Errorf("list_incidents %v: %v, want %v", filters, ids, want)
		}
		return ids
	}
	for _, f := range cases.Facets {
		if !f.Shows(cases.InSearch) {
			continue
		}
		facet := f.Name
		terms := m.terms(facet)
		if len(terms) == 0 && !f.Controlled && len(m.model.Topics()[facet].Topics) == 0 {
			t.Logf("no case of this library has a term of %s", facet) // products, before the cases name any
			continue
		}
		if len(terms) == 0 {
			t.Fatalf("facet %s has no terms", facet)
		}
		found := 0
		for _, term := range sample(terms) {
			found += len(run(map[string][]string{facet: {term}}))
		}
		if found == 0 {
			t.Errorf("no term of %s found a case", facet)
		}
		if len(terms) >= 2 {
			wide := run(map[string][]string{facet: terms[:2]})
			one := run(map[string][]string{facet: terms[:1]})
			if len(wide) < len(one) {
				t.Errorf("%s: two terms found fewer cases than one", facet)
			}
		}
	}
	both := run(map[string][]string{"components": {"ingress"}, "years": {"2025", "2024"}})
	if len(both) == 0 || len(both) >= len(m.lib.Cases) {
		t.Errorf("components=ingress and years=2024|2025: %v, want some cases but not all", both)
	}
}

func TestGetIncident(t *testing.T) {
	srv, cs := sharedServer(t)
	m := srv.live.Current()
	trimmed, whole := 0, 0
	for _, c := range sample(m.lib.Cases) {
		for _, lang := range []string{"en", "ko", "", "both"} {
			args := map[string]any{"id": c.ID}
			langs := []string{"en"}
			switch lang {
			case "both":
				langs = []string{"en", "ko"}
			case "ko":
				langs = []string{"ko"}
			}
			if lang != "" {
				args["lang"] = lang
			}
			var out incidentOutput
			text := callTool(t, cs, "get_incident", args, &out)
			if out.ID != c.ID || out.Org != c.OrgName().Get(langs[0]) || out.OrgSlug != c.OrgSlug || out.Date != c.Date.String() ||
				out.DateText != dateText(langs[0], c.Date) || out.Resource != "incidentlib://cases/"+c.ID ||
				out.RootCause != c.RootCause || !slices.Equal(out.Components, c.Components) || len(out.Related) != len(relatedIDs(m, c.ID)) {
				t.Errorf("%s: %+v", c.ID, out)
			}
			if len(out.Pages) != len(langs) {
				t.Errorf("%s lang %q: pages in %d languages", c.ID, lang, len(out.Pages))
			}
			// Two pages that do not fit in one answer: the Korean one is a
			// resource, named in a note.
			other := "Both pages do not fit in one answer: the other language's page is the resource incidentlib://cases/" + c.ID + "?lang=ko."
			if lang == "both" && slices.Contains(out.Notes, other) {
				langs, trimmed = langs[:1], trimmed+1
			} else if lang == "both" {
				whole++
			}
			for i, l := range []string{"en", "ko"} {
				twin := string(must(m.caseMarkdown(c, l)))
				page := m.site.URL(urls.Case(l, c.ID))
				if !slices.Contains(langs, l) {
					if strings.Contains(text, twin) {
						t.Errorf("%s lang %q: the %s page too", c.ID, lang, l)
					}
					continue
				}
				title, _ := c.Title.In(l)
				for _, part := range []string{twin, page, c.OrgName().Get(l), c.ID, title} {
					if !strings.Contains(text, part) {
						t.Errorf("%s %s: text lacks %.60q", c.ID, l, part)
					}
				}
				if p := out.Pages[min(i, len(out.Pages)-1)]; p.Lang != l || p.URL != page || p.Title != title {
					t.Errorf("%s %s: page %+v", c.ID, l, p)
				}
			}
		}
	}
	if trimmed == 0 || whole == 0 {
		t.Errorf("lang both: %d cases with both pages, %d with one and a link; the content has both kinds", whole, trimmed)
	}
	// Ids are read as people write them.
	var out incidentOutput
	text := callTool(t, cs, "get_incident", map[string]any{"id": " il-0495 ", "lang": "ko"}, &out)
	if out.ID != "IL-0495" || !strings.Contains(text, "## 원인") || !strings.Contains(text, "페이지: ") {
		t.Errorf("lower-case id: %+v", out)
	}
}

func TestGetTopic(t *testing.T) {
	srv, cs := sharedServer(t)
	m := srv.live.Current()
	for _, facet := range cases.FacetNames() {
		for _, tp := range sample(m.model.Topics()[facet].Topics) {
			for _, lang := range []string{"en", "ko"} {
				var out topicOutput
				arg := facet
				if lang == "ko" {
					arg = argName(facet) // both spellings work
				}
				text := callTool(t, cs, "get_topic", map[string]any{"facet": arg, "term": tp.ID, "lang": lang}, &out)
				st := tp.Stats()
				// An organisation's label is its name as the pages show it
				// (HubSpot, not 허브스팟: issue 27).
				label := tp.Label.Get(lang)
				if out.Facet != facet || out.Term != tp.ID || out.Count != len(tp.Cases) || out.Label != label {
					t.Errorf("%s/%s %s: %+v", facet, tp.ID, lang, out)
				}
				if out.URL != m.site.URL(urls.Topic(lang, facet, tp.ID, 1)) || !strings.Contains(text, out.URL) {
					t.Errorf("%s/%s: url %s", facet, tp.ID, out.URL)
				}
				if len(out.Stats.Top["components"]) != len(st.Top["components"]) || len(out.Stats.Years) != len(st.Years) ||
					!reflect.DeepEqual(out.Stats.MedianDetect, st.MedianDetect) || out.Stats.KnownResolve != st.KnownResolve {
					t.Errorf("%s/%s: stats %+v, want %+v", facet, tp.ID, out.Stats, st)
				}
				for i, tc := range st.Top["root-causes"] {
					if got := out.Stats.Top["root-causes"][i]; got.ID != tc.ID || got.Cases != tc.Count || got.Label == "" {
						t.Errorf("%s/%s: root cause %d %+v, want %+v", facet, tp.ID, i, got, tc)
					}
				}
				n := min(len(tp.Cases), m.lib.Settings.PageSize)
				if len(out.Cases) != n || out.More != len(tp.Cases)-n {
					t.Errorf("%s/%s: %d cases and %d more, want %d", facet, tp.ID, len(out.Cases), out.More, n)
				}
				for i, it := range out.Cases {
					if it.ID != tp.Cases[i].ID || !strings.Contains(text, it.URL) {
						t.Errorf("%s/%s: case %d is %s, want %s", facet, tp.ID, i, it.ID, tp.Cases[i].ID)
					}
				}
				if facet != "components" && anyComponents(tp.Cases) && !strings.Contains(text, cases.Components.Top.Get(lang)) {
					t.Errorf("%s/%s %s: no component statistics in the text:\n%s", facet, tp.ID, lang, text)
				}
			}
		}
	}
	// A topic with an introduction shows it in the language asked for.
	for lang, want := range map[string]string{"en": "The ingress controller is the proxy", "ko": "인그레스 컨트롤러는"} {
		var out topicOutput
		text := callTool(t, cs, "get_topic", map[string]any{"facet": "components", "term": "ingress", "lang": lang}, &out)
		if !strings.HasPrefix(out.Intro, want) || !strings.Contains(text, want) {
			t.Errorf("components/ingress %s: intro %.80q", lang, out.Intro)
		}
	}
}

func TestVocab(t *testing.T) {
	srv, cs := sharedServer(t)
	m := srv.live.Current()
	var out vocabOutput
	text := callTool(t, cs, "vocab", nil, &out)
	// Every facet but the products, which vocab lists when asked for.
	listed := slices.DeleteFunc(slices.Clone(cases.Facets), func(f *cases.Facet) bool { return f == cases.Products })
	if len(out.Facets) != len(listed) {
		t.Fatalf("%d facets, want %d", len(out.Facets), len(listed))
	}
	var products vocabOutput
	callTool(t, cs, "vocab", map[string]any{"facet": cases.Products.Name}, &products)
	if len(products.Facets) != 1 || len(products.Facets[0].Terms) == 0 {
		t.Errorf("vocab of the products: %+v", products.Facets)
	}
	for i, vf := range out.Facets {
		facet := listed[i].Name
		if vf.Facet != facet || vf.Argument != argName(facet) || vf.Name.En == "" || vf.Name.Ko == "" {
			t.Errorf("facet %d: %+v", i, vf)
		}
		if f := cases.FacetByName(facet); f.Controlled && len(vf.Terms) != len(m.lib.Vocab.Terms(f.Field)) {
			t.Errorf("%s: %d terms, want the %d of vocab.json", facet, len(vf.Terms), len(m.lib.Vocab.Terms(f.Field)))
		}
		for _, term := range vf.Terms {
			n := 0
			if tp := m.model.Topics()[facet].Topic(term.ID); tp != nil {
				n = len(tp.Cases)
			}
			if term.Label.En == "" || term.Label.Ko == "" || term.Cases != n {
				t.Errorf("%s/%s: %+v", facet, term.ID, term)
			}
			if !strings.Contains(text, fmt.Sprintf("- %s: %s (%d)", term.ID, term.Label.En, term.Cases)) {
				t.Errorf("%s/%s: not in the text", facet, term.ID)
			}
		}
	}
	// Organisations have Korean names in vocab.json, as search knows them.
	orgs := out.Facets[slices.Index(cases.Facets, cases.Orgs)]
	if i := slices.IndexFunc(orgs.Terms, func(t vocabTerm) bool { return t.ID == "bc-government" }); i < 0 || orgs.Terms[i].Label.Ko != "BC 주정부" {
		t.Errorf("orgs: %+v", orgs.Terms)
	}
	var topic topicOutput
	callTool(t, cs, "get_topic", map[string]any{"facet": "orgs", "term": "bc-government", "lang": "ko"}, &topic)
	if topic.Label != "BC 주정부" {
		t.Errorf("get_topic orgs/bc-government ko: label %q", topic.Label)
	}
	var one vocabOutput
	callTool(t, cs, "vocab", map[string]any{"facet": "root_causes"}, &one)
	if len(one.Facets) != 1 || one.Facets[0].Facet != "root-causes" {
		t.Errorf("vocab root_causes: %+v", one.Facets)
	}
}

func TestResources(t *testing.T) {
	srv, cs := sharedServer(t)
	m := srv.live.Current()
	var uris []string
	for r, err := range cs.Resources(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		uris = append(uris, r.URI)
	}
	want := []string{"incidentlib://vocab"}
	for _, c := range m.lib.Cases {
		want = append(want, "incidentlib://cases/"+c.ID)
	}
	if !sameSet(uris, want) {
		t.Errorf("resources %v, want %v", uris, want)
	}
	c := m.lib.Cases[0]
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "incidentlib://cases/" + c.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Contents) != 2 || res.Contents[0].Text != string(must(m.caseMarkdown(c, "en"))) || res.Contents[1].Text != string(must(m.caseMarkdown(c, "ko"))) {
		t.Errorf("resource of %s: %d contents", c.ID, len(res.Contents))
	}
	for _, uri := range []string{"incidentlib://cases/IL-9999", "incidentlib://cases/../../etc/passwd", "incidentlib://cases/%2e%2e%2fvocab.json"} {
		if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri}); err == nil || !strings.Contains(err.Error(), "not found") {
			t.Errorf("%s: %v, want not found", uri, err)
		}
	}
}

func toolCall(name string, args map[string]any) *mcp.CallToolParams {
	return &mcp.CallToolParams{Name: name, Arguments: args}
}

// must returns b, failing the test run on err.
func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestItemLineUnknownDate checks a list line of a case whose source gives no
// date: it says so instead of leaving an empty field between separators.
func TestItemLineUnknownDate(t *testing.T) {
	for lang, unknown := range map[string]string{"en": "date unknown", "ko": "날짜 미상"} {
		var b strings.Builder
		writeItems(&b, &call{lang: lang}, []caseItem{{ID: "IL-0081", Title: "t", Org: "o", URL: "u"}, {ID: "IL-0495", Title: "t", Org: "o", Date: "2024-08-27", dateText: "d", URL: "u"}})
		want := "- IL-0081 · t · o · " + unknown + " · u\n- IL-0495 · t · o · d · u\n"
		if b.String() != want {
			t.Errorf("lines:\n%s\nwant:\n%s", b.String(), want)
		}
	}
}

func relatedIDs(m *model, id string) []string {
	var ids []string
	for _, g := range m.model.Related(id) {
		for _, l := range g.Links {
			ids = append(ids, l.ID)
		}
	}
	return ids
}

// TestKoreanOrgNames: an answer in Korean names a case's organisation and
// writes its date as the Korean page does (IL-0067: "BC 주정부", not "BC
// Government"; "2025년 7월 9일", not "2025-07-09"), in the text and in
// get_incident's structured content beside the organisation's id; and one
// in English as the English page does.
func TestKoreanOrgNames(t *testing.T) {
	_, cs := sharedServer(t)
	for _, want := range []struct{ lang, org, date string }{{"ko", "BC 주정부", "2025년 7월 9일"}, {"en", "BC Government", "9 July 2025"}} {
		var out listOutput
		text := callTool(t, cs, "list_incidents", map[string]any{"orgs": []string{"bc-government"}, "lang": want.lang}, &out)
		found := false
		for _, it := range out.Cases {
			if it.ID == "IL-0067" {
				found = true
				if line := " · " + want.org + " · " + want.date + " · "; it.Org != want.org || !strings.Contains(text, "IL-0067 · ") || !strings.Contains(text, line) {
					t.Errorf("lang %s: IL-0067's organisation is %q, want %q, and its line %q:\n%s", want.lang, it.Org, want.org, line, text)
				}
			}
		}
		if !found {
			t.Errorf("lang %s: IL-0067 not listed under bc-government:\n%s", want.lang, text)
		}
		var inc incidentOutput
		callTool(t, cs, "get_incident", map[string]any{"id": "IL-0067", "lang": want.lang}, &inc)
		if inc.Org != want.org || inc.OrgSlug != "bc-government" || inc.Date != "2025-07-09" || inc.DateText != want.date {
			t.Errorf("lang %s: get_incident IL-0067 gives org %q (%q), date %q (%q); want %q (bc-government), 2025-07-09 (%q)",
				want.lang, inc.Org, inc.OrgSlug, inc.Date, inc.DateText, want.org, want.date)
		}
	}
}

// anyComponents reports whether some case names a component: a topic whose
// cases name none (an organisation's one case) has no component statistics.
func anyComponents(cs []*cases.Case) bool {
	for _, c := range cs {
		if len(c.Components) > 0 {
			return true
		}
	}
	return false
}

// TestFindBySource finds a case by its source however the address is
// spelt, says so when none cites it, and finds a withdrawn case marked.
func TestFindBySource(t *testing.T) {
	_, cs := sharedServer(t)
	for _, tt := range []struct {
		url, want string
		withdrawn bool
	}{
		{"http://WWW.Product.HubSpot.com/blog/hubspot-incident-aug27/?utm_source=x#top", "IL-0495", false},
		{"https://www.youtube.com/watch?v=QKI-JRs2RIE&utm_medium=social", "IL-0037", true},
		{"https://example.com/not-in-the-library", "", false},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "find_by_source", Arguments: map[string]any{"url": tt.url}})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %v", tt.url, err, res)
		}
		data, _ := json.Marshal(res.StructuredContent)
		var out sourceOutput
		if err := json.Unmarshal(data, &out); err != nil {
			t.Fatal(err)
		}
		switch {
		case tt.want == "" && len(out.Cases) != 0:
			t.Errorf("%s: found %v", tt.url, out.Cases)
		case tt.want != "" && (len(out.Cases) != 1 || out.Cases[0].ID != tt.want || out.Cases[0].Withdrawn != tt.withdrawn):
			t.Errorf("%s: found %+v, want %s (withdrawn %v)", tt.url, out.Cases, tt.want, tt.withdrawn)
		}
		if out.Version == "" {
			t.Errorf("%s: no library version", tt.url)
		}
	}
}
