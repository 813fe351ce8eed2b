package mcpserver

import (
	"encoding/json"
	"incidentlib/internal/cases"
	"regexp"
	"strings"
	"testing"
)

// TestServerInfo checks what the server says of itself: the library's
// version, the site, the capabilities it uses (no logging), and every
// tool's title and hints.
func TestServerInfo(t *testing.T) {
	srv, cs := sharedServer(t)
	m := srv.live.Current()
	init := cs.InitializeResult()
	info := init.ServerInfo
	if info.Version != m.model.Version || !regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}\.[0-9]+$`).MatchString(info.Version) {
		t.Errorf("version %q, want the library's %q", info.Version, libraryVersion(m))
	}
	if info.WebsiteURL != m.site.URL("") || !strings.HasPrefix(info.WebsiteURL, "https://") {
		t.Errorf("websiteUrl %q", info.WebsiteURL)
	}
	caps := init.Capabilities
	if caps.Logging != nil || caps.Prompts == nil || caps.Completions == nil || caps.Resources == nil || caps.Tools == nil {
		t.Errorf("capabilities %+v", caps)
	}
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		a := tool.Annotations
		if tool.Title == "" || a == nil || a.Title != tool.Title || !a.ReadOnlyHint || !a.IdempotentHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: title %q, annotations %+v", tool.Name, tool.Title, a)
		}
		data, _ := json.Marshal(tool.InputSchema)
		var in struct {
			Properties map[string]struct {
				Enum []string `json:"enum"`
			} `json:"properties"`
		}
		json.Unmarshal(data, &in)
		if p, ok := in.Properties["facet"]; ok && len(p.Enum) != len(cases.Facets) {
			t.Errorf("%s: facet enum %v", tool.Name, p.Enum)
		}
		if p, ok := in.Properties["lang"]; ok && len(p.Enum) < 2 {
			t.Errorf("%s: lang enum %v", tool.Name, p.Enum)
		}
	}
	// The version follows the content: another library, another version.
	lib := *m.lib
	lib.Cases = lib.Cases[1:]
	if libraryVersion(&model{lib: &lib}) == libraryVersion(m) {
		t.Error("the version does not change with the cases")
	}
}

// TestObjectID checks the message for an id that is an object.
func TestObjectID(t *testing.T) {
	_, err := checkFrame([]byte(`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`), false)
	if err == nil || !strings.Contains(string(err.response()), `\"id\" must be a string or an integer, not an object`) {
		t.Errorf("object id: %v", err)
	}
}
