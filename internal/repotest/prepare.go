package repotest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// PrepareContent returns the repository's content in memory with the test
// data of testdata/prepare/fixture.json applied: its products replace
// vocab.json's, and its cases' fields replace theirs. The tests of
// affected versions, checklists and the prepare page (#42) read it, so
// that they do not depend on what the content says today.
func PrepareContent(t testing.TB) fstest.MapFS {
	t.Helper()
	m := MapFS(t, "content")
	var fix struct {
		Products []any                     `json:"products"`
		Cases    map[string]map[string]any `json:"cases"`
	}
	b, err := os.ReadFile(filepath.Join(Dir(t, "testdata"), "prepare", "fixture.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &fix); err != nil {
		t.Fatal(err)
	}
	edit := func(name string, f func(map[string]any)) {
		var v map[string]any
		if err := json.Unmarshal(m[name].Data, &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f(v)
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		m[name] = &fstest.MapFile{Data: b}
	}
	edit("vocab.json", func(v map[string]any) {
		have, _ := v["products"].([]any)
		ids := map[any]bool{}
		for _, p := range have {
			ids[p.(map[string]any)["id"]] = true
		}
		for _, p := range fix.Products {
			if !ids[p.(map[string]any)["id"]] {
				have = append(have, p)
			}
		}
		v["products"] = have
	})
	for id, fields := range fix.Cases {
		edit("cases/"+id+".json", func(v map[string]any) {
			for k, x := range fields {
				v[k] = x
			}
		})
	}
	return m
}

// WriteFS writes an in-memory folder to dir on disk, for a test that runs
// the command on it.
func WriteFS(t testing.TB, m fstest.MapFS, dir string) {
	t.Helper()
	for name, f := range m {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
