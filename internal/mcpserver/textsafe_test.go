package mcpserver

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"incidentlib/internal/repotest"
)

// TestAnswersCarryText (#39 row 17): a title and a summary that hold a
// line break, a heading, a javascript: link and a tag reach the answers of
// search_incidents and get_incident as text: no line of the answer starts
// with the injected heading, and no link but http ones is live.
func TestAnswersCarryText(t *testing.T) {
	dir := repotest.ContentDir(t)
	file := filepath.Join(dir, "cases", "IL-0011.json")
	b, _ := os.ReadFile(file)
	const inject = `\n# Injected heading\n[click](javascript:alert(1)) <img src=x onerror=alert(2)>`
	s := strings.Replace(string(b), `"en": "HAProxy ingress piled requests`, `"en": "HAProxy`+inject+` ingress piled requests`, 1)
	s = strings.Replace(s, `"en": "Skyscanner exposed services`, `"en": "Skyscanner`+inject+` exposed services`, 1)
	if s == string(b) {
		t.Fatal("IL-0011 changed: update the test")
	}
	os.WriteFile(file, []byte(s), 0o644)
	_, cs := connect(t, dir)
	var out map[string]any
	for _, call := range []struct {
		tool string
		args map[string]any
	}{
		{"search_incidents", map[string]any{"query": "HAProxy ingress"}},
		{"get_incident", map[string]any{"id": "IL-0011"}},
	} {
		text := callTool(t, cs, call.tool, call.args, &out)
		if !strings.Contains(text, "Injected heading") {
			t.Fatalf("%s: the case is not in the answer:\n%.500s", call.tool, text)
		}
		if regexp.MustCompile(`(?m)^#+ Injected`).MatchString(text) {
			t.Errorf("%s: a heading from the case text", call.tool)
		}
		if regexp.MustCompile(`[^\\]\]\(javascript:|[^\\]<img`).MatchString(text) {
			t.Errorf("%s: a live link or tag from the case text:\n%s", call.tool, text)
		}
	}
}
