package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/repotest"
)

// prepareServer is a server over the fixture of #42 (testdata/prepare).
func prepareServer(t *testing.T) *mcp.ClientSession {
	t.Helper()
	dir := t.TempDir()
	repotest.WriteFS(t, repotest.PrepareContent(t), dir)
	_, cs := connect(t, dir)
	return cs
}

// naming returns the ids of the fixture's cases that name product for a
// version that holds v, newest first: the reference the tools are held to.
func naming(t *testing.T, product, v string) []string {
	t.Helper()
	lib, list := cases.Load(repotest.PrepareContent(t))
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	var out []string
	for _, c := range lib.Cases {
		if slices.ContainsFunc(c.Affected, func(a cases.Affected) bool { return a.Product == product && a.Matches(v) }) {
			out = append(out, c.ID)
		}
	}
	return out
}

// TestPrepareGolden keeps the answer of prepare in both languages in
// testdata/golden/prepare.*.txt; -update rewrites them.
func TestPrepareGolden(t *testing.T) {
	cs := prepareServer(t)
	args := map[string]any{cases.Components.Arg(): []any{"cni"}, "products": []any{"ingress-nginx=1.11.2"}, "limit": 6}
	for _, lang := range cases.Languages {
		a := map[string]any{"lang": lang}
		for k, v := range args {
			a[k] = v
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "prepare", Arguments: a})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			t.Fatalf("prepare: %s", resultText(res))
		}
		sc, _ := json.MarshalIndent(res.StructuredContent, "", "  ")
		checkOutput(t, "prepare", sc)
		got := fmt.Sprintf("prepare %s\n\n--- text\n%s\n--- structured content\n%s\n", mustJSON(args), resultText(res), sc)
		file := filepath.Join("testdata", "golden", "prepare."+lang+".txt")
		if repotest.Update() {
			if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v (run go test -run TestPrepareGolden -update)", err)
		}
		if string(want) != got {
			t.Errorf("%s differs from the answer (go test -run TestPrepareGolden -update rewrites it):\n%s", file, got)
		}
	}
}

// TestPrepareApplies checks which cases apply: a component's cases, less
// those that name the product only for other versions; a product alone.
func TestPrepareApplies(t *testing.T) {
	cs := prepareServer(t)
	var out prepareOutput
	callTool(t, cs, "prepare", map[string]any{cases.Components.Arg(): "ingress", "products": []any{"ingress-nginx=1.11.2"}, "limit": 60}, &out)
	ids := func() []string {
		var s []string
		for _, c := range out.Cases {
			s = append(s, c.ID)
		}
		return s
	}
	if got := ids(); !slices.Contains(got, "IL-0081") || slices.Contains(got, "IL-0054") || !slices.Contains(got, "IL-0535") {
		t.Errorf("ingress with ingress-nginx 1.11.2: %v", got)
	}
	for _, g := range out.Checklist {
		for _, it := range g.Items {
			for _, f := range it.Cases {
				if !slices.Contains(ids(), f.ID) {
					t.Errorf("the checklist names %s, which does not apply", f.ID)
				}
			}
		}
	}
	out = prepareOutput{}
	callTool(t, cs, "prepare", map[string]any{"products": []any{"ingress-nginx=1.9.5"}}, &out)
	if got, want := ids(), naming(t, "ingress-nginx", "1.9.5"); !slices.Equal(got, want) || !slices.Contains(got, "IL-0081") || !slices.Contains(got, "IL-0054") {
		t.Errorf("ingress-nginx 1.9.5 alone: %v, want %v", got, want)
	}
	// list_incidents keeps the cases whose ranges hold the version.
	var list listOutput
	callTool(t, cs, "list_incidents", map[string]any{cases.Products.Arg(): "ingress-nginx", "version": "1.11.0"}, &list)
	var got []string
	for _, c := range list.Cases {
		got = append(got, c.ID)
	}
	if want := naming(t, "ingress-nginx", "1.11.0"); !slices.Equal(got, want) || !slices.Contains(got, "IL-0081") || slices.Contains(got, "IL-0054") {
		t.Errorf("list_incidents ingress-nginx 1.11.0: %v, want %v", got, want)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_incidents", Arguments: map[string]any{"version": "1.11.0"}})
	if err != nil || !res.IsError {
		t.Errorf("version without a product: %v %s", err, resultText(res))
	}
}

// TestPrepareBound asks prepare for the largest component of a generated
// library of 600 cases: the structured content lists its newest
// prepareListed cases and counts them all, and a checklist item lists at
// most prepareItemCases of its cases and counts the rest.
func TestPrepareBound(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a generated library of 600 cases")
	}
	dir := t.TempDir()
	if err := gencases.WriteDir(dir, gencases.Options{N: 600, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	lib, list := cases.Load(os.DirFS(dir))
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	count := map[string]int{}
	part := ""
	for _, c := range lib.Cases {
		for _, id := range c.Components {
			if count[id]++; count[id] > count[part] {
				part = id
			}
		}
	}
	_, cs := connect(t, dir)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "prepare", Arguments: map[string]any{cases.Components.Arg(): []any{part}, "limit": prepareMax}})
	if err != nil || res.IsError {
		t.Fatalf("prepare: %v %s", err, resultText(res))
	}
	var out prepareOutput
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out.Total != count[part] || count[part] <= prepareListed || len(out.Cases) != prepareListed || out.Cases[0].ID != lib.Cases[slices.IndexFunc(lib.Cases, func(c *cases.Case) bool { return slices.Contains(c.Components, part) })].ID {
		t.Errorf("total %d, %d cases listed from %s; want %d, the newest %d", out.Total, len(out.Cases), out.Cases[0].ID, count[part], prepareListed)
	}
	cut := 0
	for _, g := range out.Checklist {
		for _, it := range g.Items {
			if len(it.Cases) > prepareItemCases || it.More > 0 && len(it.Cases) != prepareItemCases {
				t.Errorf("an item lists %d cases and counts %d more", len(it.Cases), it.More)
			}
			if it.More > 0 {
				cut++
			}
		}
	}
	if cut == 0 {
		t.Error("no item came from more cases than it lists: the library does not exercise the bound")
	}
	if len(b) > 256<<10 {
		t.Errorf("the structured content is %d bytes", len(b))
	}
}
