package e2e

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/repotest"
)

// protocolVersions are the MCP versions the SDK clients send, oldest
// first: every one must work on every transport.
var protocolVersions = []string{"2025-06-18", "2025-11-25", "2026-07-28"}

// TestMCPProtocolVersions connects the Go SDK's client pinned to each
// protocol version over stdio, HTTP with sessions and stateless HTTP: the
// server agrees to the version and answers a call. Before #40, HTTP with
// sessions refused 2026-07-28.
func TestMCPProtocolVersions(t *testing.T) {
	content := repotest.CopyDir(t, "content")
	sessions := startHTTP(t, content)
	stateless := startHTTP(t, content, "-stateless")
	transports := map[string]func() mcp.Transport{
		"stdio": func() mcp.Transport {
			return &mcp.CommandTransport{Command: exec.Command(builtMCP(t), "mcp", "-content", content)}
		},
		"sessions":  func() mcp.Transport { return &mcp.StreamableClientTransport{Endpoint: sessions.endpoint} },
		"stateless": func() mcp.Transport { return &mcp.StreamableClientTransport{Endpoint: stateless.endpoint} },
	}
	for _, name := range []string{"stdio", "sessions", "stateless"} {
		for _, v := range protocolVersions {
			t.Run(name+"/"+v, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, transports[name](), &mcp.ClientSessionOptions{ProtocolVersion: v})
				if err != nil {
					t.Fatalf("connect: %v", err)
				}
				defer cs.Close()
				if got := cs.InitializeResult().ProtocolVersion; got != v {
					t.Errorf("the server agreed to %s, not %s", got, v)
				}
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_incident", Arguments: map[string]any{"id": "IL-0495"}})
				if err != nil {
					t.Fatal(err)
				}
				if text := res.Content[0].(*mcp.TextContent).Text; res.IsError || !strings.Contains(text, "# IL-0495: ") {
					t.Errorf("get_incident: %.300s", text)
				}
			})
		}
	}
}
