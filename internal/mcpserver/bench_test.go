package mcpserver

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/gencases"
)

// benchLibrary generates a library of n cases in a temporary folder.
func benchLibrary(b *testing.B, n int) string {
	dir := filepath.Join(b.TempDir(), "content")
	if err := gencases.WriteDir(dir, gencases.Options{N: n, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	return dir
}

// BenchmarkLoad measures New on 10,000 cases: load, derive, index, register.
func BenchmarkLoad(b *testing.B) {
	dir := benchLibrary(b, 10000)
	for b.Loop() {
		if _, err := New(Options{Content: dir}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTools measures one call of each tool on 10,000 cases over the
// in-memory transport.
func BenchmarkTools(b *testing.B) {
	dir := benchLibrary(b, 10000)
	t0 := time.Now()
	srv, err := New(Options{Content: dir})
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("loaded in %v", time.Since(t0))
	cs := connectTo(b, srv)
	for _, tc := range []struct {
		name string
		args map[string]any
	}{
		{"search_incidents", map[string]any{"query": "ingress 404", "lang": "ko"}},
		{"get_incident", map[string]any{"id": gencases.CaseID(4321, 10000)}},
		{"list_incidents", map[string]any{"components": []string{"ingress"}}},
		{"get_topic", map[string]any{"facet": "components", "term": "ingress"}},
		{"vocab", map[string]any{"facet": "symptoms"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.name, Arguments: tc.args})
				if err != nil || res.IsError {
					b.Fatal(err, fmt.Sprint(res))
				}
			}
		})
	}
}
