package search

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"incidentlib/internal/repotest"
	"incidentlib/internal/tokenize"
)

type vectorCase struct {
	Name   string       `json:"name"`
	In     string       `json:"in"`
	Index  []string     `json:"index"`
	Query  []queryGroup `json:"query"`
	Typing []queryGroup `json:"typing"`
}

type vectorFile struct {
	About string       `json:"about"`
	Cases []vectorCase `json:"cases"`
}

var vectorsPath = filepath.Join("..", "..", "testdata", "tokenize", "vectors.json")

// TestVectors runs the vectors that js-test/tokenize.test.js runs against
// the browser tokenizer, so that the two cannot drift apart.
func TestVectors(t *testing.T) {
	vf := readVectors(t)
	if len(vf.Cases) < 20 {
		t.Fatalf("only %d vectors; the file looks truncated", len(vf.Cases))
	}
	for _, c := range vf.Cases {
		got := tokenize.IndexTerms(c.In)
		if got == nil {
			got = []string{}
		}
		if !reflect.DeepEqual(got, c.Index) {
			t.Errorf("%s: tokenize.IndexTerms(%q) = %q, want %q", c.Name, c.In, got, c.Index)
		}
		if g := parseQuery(c.In, false); !reflect.DeepEqual(g, c.Query) {
			t.Errorf("%s: Query(%q, false) = %+v, want %+v", c.Name, c.In, g, c.Query)
		}
		if g := parseQuery(c.In, true); !reflect.DeepEqual(g, c.Typing) {
			t.Errorf("%s: Query(%q, true) = %+v, want %+v", c.Name, c.In, g, c.Typing)
		}
	}
}

// TestVectorsUpdate rewrites the expected terms of the shared vectors from
// the Go tokenizer when run with -update; review the diff, then make the
// browser twin agree (node --test js-test/).
func TestVectorsUpdate(t *testing.T) {
	if !repotest.Update() {
		t.Skip("only with -update")
	}
	vf := readVectors(t)
	for k, c := range vf.Cases {
		vf.Cases[k].Index = tokenize.IndexTerms(c.In)
		if vf.Cases[k].Index == nil {
			vf.Cases[k].Index = []string{}
		}
		vf.Cases[k].Query, vf.Cases[k].Typing = parseQuery(c.In, false), parseQuery(c.In, true)
	}
	out, err := json.MarshalIndent(vf, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(vectorsPath, append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readVectors(t *testing.T) vectorFile {
	t.Helper()
	data, err := os.ReadFile(vectorsPath)
	if err != nil {
		t.Fatal(err)
	}
	var vf vectorFile
	if err := json.Unmarshal(data, &vf); err != nil {
		t.Fatal(err)
	}
	return vf
}
