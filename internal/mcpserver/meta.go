package mcpserver

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"time"

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

// libraryVersion is the version of the library the server reports. The
// model has no version of its own yet, so it is a digest of every case's
// id and updated_at, "content-" and 12 hex digits: two servers of the same
// content report the same version, and an edit that dates itself changes
// it.
func libraryVersion(m *model) string {
	if m.lib == nil {
		return "0"
	}
	h := sha256.New()
	for _, c := range m.lib.Cases {
		h.Write([]byte(c.ID))
		h.Write([]byte(c.UpdatedAt.UTC().Format(time.RFC3339Nano)))
		h.Write([]byte{0})
	}
	return "content-" + hex.EncodeToString(h.Sum(nil))[:12]
}
