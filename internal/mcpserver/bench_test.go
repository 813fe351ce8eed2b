package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/gencases"
)

// benchLibrary returns a generated library of n cases, kept under the
// system's temporary folder between runs (generating 10,000 cases takes
// several seconds).
func benchLibrary(b *testing.B, n int) string {
	dir := filepath.Join(os.TempDir(), "incidentlib-mcp-bench", strconv.Itoa(n))
	if _, err := os.Stat(filepath.Join(dir, "site.json")); err != nil {
		os.RemoveAll(dir)
		if err := gencases.WriteDir(dir, gencases.Options{N: n, Seed: 1}); err != nil {
			b.Fatal(err)
		}
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
