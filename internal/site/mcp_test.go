package site

import (
	"strings"
	"testing"

	"incidentlib/internal/urls"
)

// TestMCPAdvertised checks what the API page and case pages say about the
// MCP server: always how to run it locally, with setup for Claude Code,
// Codex and VS Code in both languages; a hosted server only when site.json
// names one, and then next to the local command.
func TestMCPAdvertised(t *testing.T) {
	const hosted = "https://mcp.example/mcp"
	for _, url := range []string{"", hosted} {
		fsys := contentFS(t)
		lib := loadContent(t, fsys)
		lib.Settings.MCP.URL = url
		s := newSite(t, lib, false)
		for _, lang := range []string{"en", "ko"} {
			api := visible(render(t, s, Job{Kind: KindAPIDoc, Lang: lang, Path: urls.APIDoc(lang)}))
			c := lib.Cases[0]
			page := visible(render(t, s, Job{Kind: KindCase, Lang: lang, Path: urls.Case(lang, c.ID), Case: c}))
			for _, want := range []string{
				"incidentlib mcp -content content", "-http 127.0.0.1:8765",
				`claude mcp add incidentlib -- incidentlib mcp -content "$PWD/content"`,
				"[mcp_servers.incidentlib]", `args = ["mcp", "-content", "/path/to/incidentlib/content"]`,
				".vscode/mcp.json", `"args": ["mcp", "-content", "${workspaceFolder}/content"]`,
				s.strings.Get(lang, "api.mcp_intro"), s.strings.Get(lang, "api.tool.search_incidents"),
			} {
				if !strings.Contains(api, want) {
					t.Errorf("%s API page (hosted %q) lacks %q", lang, url, want)
				}
			}
			for _, tool := range MCPTools {
				if !strings.Contains(api, tool) || !strings.Contains(page, tool) {
					t.Errorf("%s: tool %s not named", lang, tool)
				}
			}
			if !strings.Contains(page, s.strings.Get(lang, "case.ai_mcp")+": incidentlib mcp") {
				t.Errorf("%s case page does not give the local command", lang)
			}
			for what, text := range map[string]string{"API page": api, "case page": page} {
				named := strings.Contains(text, "mcp.example") || strings.Contains(text, "incidentlib-mcp.")
				if named != (url != "") {
					t.Errorf("%s %s with hosted URL %q: names a hosted server: %v", lang, what, url, named)
				}
			}
			if url != "" && !strings.Contains(api, "claude mcp add --transport http incidentlib "+hosted) {
				t.Errorf("%s API page: no setup for the hosted server", lang)
			}
			// site.json's note and tools describe the hosted server.
			note, _ := lib.Settings.MCP.Note.In(lang)
			for _, part := range []string{note, s.strings.Get(lang, "case.ai_tools") + ": " + lib.Settings.MCP.Tools[0]} {
				if strings.Contains(api, part) != (url != "") {
					t.Errorf("%s API page with hosted URL %q: shows %q: %v", lang, url, part, url == "")
				}
			}
		}
	}
}
