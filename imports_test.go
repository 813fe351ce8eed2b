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
// ours at its bottom, such as cmd/incidentlib → build → site → library →
// cases → jsonpos.
const maxDepth = 6

// The layers, from the top: every import points to a lower layer, so that
// no package imports one of its own layer (the applications stand side by
// side on the presenters, and the presenters side by side on the model)
// nor one above it.
const (
	leaf      = iota // imports no package of ours: urls, l10n, diag, htmlexec, watch, …
	input            // reads what the library is made of: cases (on jsonpos, offheap)
	model            // library: the loaded cases with everything derived from them
	presenter        // site (HTML), api (JSON), search (the index and its engine)
	app              // build, serve, mcpserver
	command          // cmd/…
)

// layers names the layer of every package of the module; a new package
// must be given one here.
var layers = map[string]int{
	".":                               leaf, // the embedded theme
	"internal/diag":                   leaf,
	"internal/gencases":               leaf,
	"internal/htmlexec":               leaf,
	"internal/httpsafe":               leaf,
	"internal/jsonpos":                leaf,
	"internal/l10n":                   leaf,
	"internal/markup":                 leaf,
	"internal/related":                leaf,
	"internal/repotest":               leaf,
	"internal/tokenize":               leaf, // the words of a text, for the index, the queries and the narrative
	"internal/urls":                   leaf,
	"internal/watch":                  leaf,
	"internal/cases/internal/offheap": leaf,
	"internal/cases":                  input,
	"internal/history":                input, // the content's git history, for the changes list
	"internal/webtest":                input, // reads a built site, on urls
	"internal/library":                model,
	// casemd writes a case as Markdown on the case and the catalogue alone,
	// beside the model, so that site (the twins) and mcpserver (its
	// answers) share it without mcpserver reaching a template.
	"internal/casemd":    model,
	"internal/site":      presenter,
	"internal/api":       presenter,
	"internal/search":    presenter,
	"internal/build":     app,
	"internal/serve":     app,
	"internal/mcpserver": app,
}

// layerOf returns the layer of package p.
func layerOf(p string) (int, bool) {
	if strings.HasPrefix(p, "cmd/") {
		return command, true
	}
	l, ok := layers[p]
	return l, ok
}

// unreachable are packages that may not be reached from another by any
// chain of imports: the MCP server answers JSON calls without the HTML
// presenter and its template engine.
var unreachable = [][2]string{
	{"internal/mcpserver", "internal/site"},
	{"internal/mcpserver", "internal/htmlexec"},
	{"internal/mcpserver", "internal/api"},
	{"internal/casemd", "internal/htmlexec"},
	{"internal/library", "internal/site"},
	{"internal/library", "internal/search"},
}

// direct are imports that must be there: the model and the search index
// read words with one tokenizer, a leaf of its own, not the model through
// search nor search through a copy.
var direct = [][2]string{
	{"internal/library", "internal/tokenize"},
	{"internal/search", "internal/tokenize"},
}

// TestImportGraph reads the imports of every non-test Go file of the
// module (every build tag's files, so that no platform hides an import)
// and checks the shape of the graph: every import points to a lower
// layer, no forbidden package is reachable, and no chain is deeper than
// maxDepth.
func TestImportGraph(t *testing.T) {
	graph := moduleImports(t)
	if len(graph["cmd/incidentlib"]) == 0 || len(graph["internal/cases"]) == 0 {
		t.Fatalf("read no imports of cmd/incidentlib or internal/cases: %v", graph)
	}
	names := []string{"leaf", "input", "model", "presenter", "app", "command"}
	for _, p := range sortedKeys(graph) {
		lp, ok := layerOf(p)
		if !ok {
			if p != "e2e" {
				t.Errorf("package %s has no layer in imports_test.go", p)
			}
			continue
		}
		for _, q := range sortedKeys(graph[p]) {
			if lq, ok := layerOf(q); ok && lq >= lp {
				t.Errorf("%s (%s) imports %s (%s): an import points to a lower layer", p, names[lp], q, names[lq])
			}
		}
	}
	for _, u := range unreachable {
		if path := reach(graph, u[0], u[1]); path != nil {
			t.Errorf("%s reaches %s: %s", u[0], u[1], strings.Join(path, " → "))
		}
	}
	for _, d := range direct {
		if !graph[d[0]][d[1]] {
			t.Errorf("%s does not import %s", d[0], d[1])
		}
	}
	chain := longestChain(graph)
	if len(chain) > maxDepth {
		t.Errorf("the longest import chain holds %d packages, more than %d: %s", len(chain), maxDepth, strings.Join(chain, " → "))
	}
	t.Logf("longest chain (%d): %s", len(chain), strings.Join(chain, " → "))
}

// reach returns a chain of imports from a to b, or nil when there is none.
func reach(graph map[string]map[string]bool, a, b string) []string {
	seen := map[string]bool{}
	var walk func(p string) []string
	walk = func(p string) []string {
		if p == b {
			return []string{p}
		}
		if seen[p] {
			return nil
		}
		seen[p] = true
		for _, q := range sortedKeys(graph[p]) {
			if c := walk(q); c != nil {
				return append([]string{p}, c...)
			}
		}
		return nil
	}
	return walk(a)
}

// TestReach checks reach and the layer rule's catch on a graph made up
// for it: an upward import and a reachable forbidden package.
func TestReach(t *testing.T) {
	g := map[string]map[string]bool{
		"internal/mcpserver": {"internal/library": true},
		"internal/library":   {"internal/site": true}, // upward
		"internal/site":      {"internal/htmlexec": true},
	}
	if got := strings.Join(reach(g, "internal/mcpserver", "internal/htmlexec"), " "); got != "internal/mcpserver internal/library internal/site internal/htmlexec" {
		t.Errorf("reach = %q", got)
	}
	if reach(g, "internal/site", "internal/library") != nil {
		t.Error("reach found a chain against the imports")
	}
	if lm, _ := layerOf("internal/library"); lm >= layers["internal/site"] {
		t.Error("the model is not below the presenters")
	}
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
