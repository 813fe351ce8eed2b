package mcpserver

import (
	"encoding/base64"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// capabilities are what the server offers: tools, resources (whose list
// changes as cases are added and removed), prompts and completions. It
// sends no log messages, so it does not advertise logging.
func capabilities() *mcp.ServerCapabilities {
	return &mcp.ServerCapabilities{
		Tools:       &mcp.ToolCapabilities{},
		Resources:   &mcp.ResourceCapabilities{ListChanged: true},
		Prompts:     &mcp.PromptCapabilities{},
		Completions: &mcp.CompletionCapabilities{},
	}
}

// describeServer completes the server's description from the library it loaded
// first: the library's version, the site's address and the icon. It runs
// before the server answers anyone (the SDK keeps info and sends it in
// every initialize answer), so a reload does not change it.
func describeServer(info *mcp.Implementation, m *model, icon []byte) {
	info.Version = libraryVersion(m)
	if m.site != nil {
		info.WebsiteURL = m.site.URL("")
	}
	if len(icon) > 0 {
		info.Icons = []mcp.Icon{{Source: "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(icon), MIMEType: "image/svg+xml", Sizes: []string{"any"}}}
	}
}

// libraryVersion is the version of the library the server reports: the
// library's own (library.Library.Version, the day of its newest change and
// that day's count of changes), which pages, the API and the downloads name
// too, so two servers of the same content report the same version.
func libraryVersion(m *model) string {
	if m.model == nil || m.model.Version == "" {
		return "0"
	}
	return m.model.Version
}
