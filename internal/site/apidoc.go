package site

import (
	"incidentlib/internal/cases"
	"incidentlib/internal/urls"
)

// MCPTools are the tools of "incidentlib mcp" (package mcpserver), which
// the API page and case pages name; a test of that package holds the two
// lists together.
var MCPTools = []string{"search_incidents", "get_incident", "list_incidents", "get_topic", "vocab", "find_by_source", "prepare"}

// apiDocView documents the static JSON API and the MCP server.
type apiDocView struct {
	*pageView
	Base     string
	Example  string
	MCPURL   string // a hosted server named in site.json, or ""
	Files    []apiFile
	MCPTools []mcpTool
	// What site.json says of the hosted server: its note and tools.
	MCPNote   localized
	HostTools []string
}

// mcpTool is one tool of the MCP server.
type mcpTool struct {
	Name string
	Desc string
}

// apiFile is one file of the API.
type apiFile struct {
	Path string
	Href string
	Desc string
}

func (s views) apiDocView(j Job) *apiDocView {
	p := s.page(j, s.strings.Get(j.Lang, "api.title"))
	p.Section = "api"
	p.Crumbs = []crumb{{p.T("nav.home"), p.Link(urls.Home(j.Lang))}, {p.Title, ""}}
	mcp := s.lib.Settings.MCP
	v := &apiDocView{pageView: p, Base: s.base + urls.APIDir, MCPURL: mcp.URL, MCPNote: localize(mcp.Note, j.Lang), HostTools: mcp.Tools}
	ex := "IL-0000"
	if len(s.lib.Cases) > 0 {
		ex = s.lib.Cases[0].ID
	}
	v.Example = ex
	topicEx := "ingress"
	if ts := s.topics[cases.Components.Name].Topics; len(ts) > 0 {
		topicEx = ts[0].ID
	}
	for _, f := range []struct{ path, key string }{
		{urls.APICases, "api.cases"},
		{urls.APICase(ex), "api.case"},
		{urls.APISimilar(ex), "api.similar"},
		{urls.APIVocab, "api.vocab"},
		{urls.APITopic(cases.Components.Name, topicEx), "api.topic"},
		{urls.APISchema, "api.schema"},
		{urls.APISiteSchema, "api.schema_site"},
		{urls.APIVocabSchema, "api.schema_vocab"},
		{urls.APICasesCSV, "api.csv"},
		{urls.APICasesJSONL, "api.jsonl"},
		{urls.APICasesZip, "api.zip"},
		{urls.APIChanges, "api.changes"},
		{urls.APISources, "api.sources"},
	} {
		v.Files = append(v.Files, apiFile{Path: "/" + f.path, Href: p.Link(f.path), Desc: p.T(f.key)})
	}
	for _, name := range MCPTools {
		v.MCPTools = append(v.MCPTools, mcpTool{Name: name, Desc: p.T("api.tool." + name)})
	}
	return v
}
