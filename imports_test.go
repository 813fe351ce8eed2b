package incidentlib

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// maxDepth is how many packages the longest import chain inside the module
// may hold, the command at its top and a package that imports no other of
// ours at its bottom, such as cmd/incidentlib → mcpserver → snapshot → site
// → cases → jsonpos.
const maxDepth = 6

// forbidden are imports that would stack the applications again: the
// build, the preview and the MCP server stand side by side on package
// snapshot, and site and search beside each other under it.
var forbidden = [][2]string{
	{"internal/serve", "internal/build"},
	{"internal/mcpserver", "internal/build"},
	{"internal/mcpserver", "internal/serve"},
	{"internal/site", "internal/search"},
	{"internal/search", "internal/site"},
}

// TestImportGraph reads the imports of every non-test Go file of the
// module (every build tag's files, so that no platform hides an import)
// and checks the shape of the graph: no forbidden import, and no chain
// deeper than maxDepth.
func TestImportGraph(t *testing.T) {
	graph := moduleImports(t)
	if len(graph["cmd/incidentlib"]) == 0 || len(graph["internal/cases"]) == 0 {
		t.Fatalf("read no imports of cmd/incidentlib or internal/cases: %v", graph)
	}
	for _, f := range forbidden {
		if graph[f[0]][f[1]] {
			t.Errorf("%s imports %s", f[0], f[1])
		}
	}
	chain := longestChain(graph)
	if len(chain) > maxDepth {
		t.Errorf("the longest import chain holds %d packages, more than %d: %s", len(chain), maxDepth, strings.Join(chain, " → "))
	}
	t.Logf("longest chain (%d): %s", len(chain), strings.Join(chain, " → "))
}

// TestLongestChain checks longestChain on a graph made up for it.
func TestLongestChain(t *testing.T) {
	g := map[string]map[string]bool{
		"cmd/x": {"a": true, "b": true},
		"a":     {"c": true},
		"b":     {"a": true},
		"c":     {},
	}
	if got := strings.Join(longestChain(g), " "); got != "cmd/x b a c" {
		t.Errorf("longestChain = %s, want cmd/x b a c", got)
	}
}

// moduleImports returns, for every package folder of the module (relative
// to its root, "." for the root), the module's packages its non-test files
// import.
func moduleImports(t *testing.T) map[string]map[string]bool {
	t.Helper()
	const module = "incidentlib"
	graph := map[string]map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(p))
		if graph[pkg] == nil {
			graph[pkg] = map[string]bool{}
		}
		for _, imp := range f.Imports {
			ip, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			switch {
			case ip == module:
				graph[pkg]["."] = true
			case strings.HasPrefix(ip, module+"/"):
				graph[pkg][strings.TrimPrefix(ip, module+"/")] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("go.mod"); err != nil {
		t.Fatal("not at the module root:", err)
	}
	return graph
}

// longestChain returns the longest path of imports in graph, as package
// names from the importer down; ties go to the first in name order.
func longestChain(graph map[string]map[string]bool) []string {
	memo := map[string][]string{}
	var down func(p string) []string
	down = func(p string) []string {
		if c, ok := memo[p]; ok {
			return c
		}
		memo[p] = []string{p} // a cycle, which the compiler refuses anyway, ends here
		var best []string
		for _, q := range sortedKeys(graph[p]) {
			if c := down(q); len(c) > len(best) {
				best = c
			}
		}
		memo[p] = append([]string{p}, best...)
		return memo[p]
	}
	var best []string
	for _, p := range sortedKeys(graph) {
		if c := down(p); len(c) > len(best) {
			best = c
		}
	}
	return best
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
