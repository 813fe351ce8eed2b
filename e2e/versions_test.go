package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/repotest"
	"incidentlib/internal/webtest"
)

// protocolVersions are the MCP versions the SDK clients send, oldest
// first: every one must work on every transport.
var protocolVersions = []string{"2025-06-18", "2025-11-25", "2026-07-28"}

// TestMCPProtocolVersions connects the Go SDK's client pinned to each
// protocol version over stdio, HTTP with sessions and stateless HTTP: the
// server agrees to the version and answers a call. Before #40, HTTP with
// sessions refused 2026-07-28.
func TestMCPProtocolVersions(t *testing.T) {
	content := repotest.ContentDir(t)
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
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // a hang, not a busy machine
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

// TestMCPTypeScriptClients runs the official TypeScript SDK clients of
// both generations (1.x and 2.x, pinned in package-lock.json) against the
// server over each transport with each version they send
// (testdata/sdkclients.mjs): each connection agrees to the version it
// asked for and answers get_incident.
func TestMCPTypeScriptClients(t *testing.T) {
	webtest.Heavy(t, "runs node and the TypeScript SDK clients")
	root, err := webtest.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	node, err := exec.LookPath("node")
	if err == nil {
		for _, m := range []string{"@modelcontextprotocol/sdk", "@modelcontextprotocol/client"} {
			if _, serr := os.Stat(filepath.Join(root, "node_modules", m, "package.json")); serr != nil {
				err = serr
			}
		}
	}
	if err != nil {
		webtest.Missing(t, "node with the TypeScript MCP SDK clients", err)
	}
	content := repotest.ContentDir(t)
	sessions := startHTTP(t, content)
	stateless := startHTTP(t, content, "-stateless")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(root, "e2e", "testdata", "sdkclients.mjs"), builtMCP(t), content, sessions.endpoint, stateless.endpoint)
	cmd.Dir = root
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	type line struct {
		Gen                                  int
		Transport, Version, Negotiated, Text string
		IsError                              bool
		Error                                string
	}
	seen := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r line
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		what := fmt.Sprintf("TypeScript SDK %d.x, %s, %s", r.Gen, r.Transport, r.Version)
		seen[r.Transport+" "+r.Version] = true
		switch {
		case r.Error != "":
			t.Errorf("%s: %s", what, r.Error)
		case r.Negotiated != r.Version:
			t.Errorf("%s: the server agreed to %q", what, r.Negotiated)
		case r.IsError || !strings.HasPrefix(r.Text, "# IL-0495: "):
			t.Errorf("%s: get_incident answered %q", what, r.Text)
		}
	}
	for _, tr := range []string{"stdio", "sessions", "stateless"} {
		for _, v := range protocolVersions {
			if !seen[tr+" "+v] {
				t.Errorf("no TypeScript client tried %s on %s", v, tr)
			}
		}
	}
}
