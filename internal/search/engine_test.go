package search

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// engineVectors is testdata/engine.json: queries over the fixture with the
// answer both engines must give. The Go engine writes the answers (with
// -update); js-test/engine.test.js runs the browser engine over the golden
// index and must give the same, which is what keeps the two one engine.
type engineVectors struct {
	About   string         `json:"about"`
	Queries []engineVector `json:"queries"`
}

type engineVector struct {
	Name    string              `json:"name"`
	Q       string              `json:"q"`
	Filters map[string][]string `json:"filters,omitempty"`
	Want    engineAnswer        `json:"want"`
}

type engineAnswer struct {
	IDs         []string                  `json:"ids"`
	Scores      []float64                 `json:"scores"`
	Total       int                       `json:"total"`
	Partial     bool                      `json:"partial"`
	Counts      map[string]map[string]int `json:"counts"`
	Truncated   bool                      `json:"truncated"`
	DidYouMean  string                    `json:"didYouMean"`
	DropFilters int                       `json:"dropFilters"`
}

const engineVectorsPath = "testdata/engine.json"

func answer(docs []Doc, r Result) engineAnswer {
	a := engineAnswer{
		IDs: []string{}, Scores: []float64{}, Total: r.Total, Partial: r.Partial, Counts: r.Counts,
		Truncated: r.Truncated, DidYouMean: r.DidYouMean, DropFilters: r.DropFilters,
	}
	for _, h := range r.Hits {
		a.IDs = append(a.IDs, docs[h.Doc].ID)
		// Scores are sums of integers, halves and fifths; six decimals
		// hold them exactly enough for both languages' floats.
		a.Scores = append(a.Scores, math.Round(h.Score*1e6)/1e6)
	}
	return a
}

func TestEngineVectors(t *testing.T) {
	docs, labels := readFixture(t)
	e, err := newEngine(docs, labels, goldenConfig)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(engineVectorsPath)
	if err != nil {
		t.Fatal(err)
	}
	var vs engineVectors
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs.Queries) < 20 {
		t.Fatalf("only %d engine vectors", len(vs.Queries))
	}
	for k, v := range vs.Queries {
		got := answer(docs, e.Search(v.Q, v.Filters))
		if *update {
			vs.Queries[k].Want = got
			continue
		}
		if !reflect.DeepEqual(got, v.Want) {
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(v.Want)
			t.Errorf("%s: %q\n got %s\nwant %s", v.Name, v.Q, gj, wj)
		}
	}
	if *update {
		out, err := json.MarshalIndent(vs, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.FromSlash(engineVectorsPath), append(out, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestEngineQueries runs the relevance suite of testdata/queries.json
// through the Go engine.
func TestEngineQueries(t *testing.T) {
	docs, labels := readFixture(t)
	e := NewEngine(docs, labels)
	var qf struct {
		Queries []struct {
			Name, Q, First   string
			Include, Exclude []string
			Order            []string
			Partial          bool
			Filters          map[string][]string
		}
	}
	data, err := os.ReadFile(filepath.Join("testdata", "queries.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &qf); err != nil {
		t.Fatal(err)
	}
	for _, q := range qf.Queries {
		r := e.Search(q.Q, q.Filters)
		var ids []string
		got := map[string]bool{}
		for _, h := range r.Hits {
			ids = append(ids, docs[h.Doc].ID)
			got[docs[h.Doc].ID] = true
		}
		for _, id := range q.Include {
			if !got[id] {
				t.Errorf("%s: %q did not find %s (found %v)", q.Name, q.Q, id, ids)
			}
		}
		for _, id := range q.Exclude {
			if got[id] {
				t.Errorf("%s: %q found %s (found %v)", q.Name, q.Q, id, ids)
			}
		}
		if q.First != "" && (len(ids) == 0 || ids[0] != q.First) {
			t.Errorf("%s: %q ranked %v, want %s first", q.Name, q.Q, ids, q.First)
		}
		if q.Order != nil && !reflect.DeepEqual(ids, q.Order) {
			t.Errorf("%s: %q gave %v, want %v", q.Name, q.Q, ids, q.Order)
		}
		if r.Partial != q.Partial || r.Total != len(r.Hits) {
			t.Errorf("%s: %q partial %v total %d of %d hits, want partial %v", q.Name, q.Q, r.Partial, r.Total, len(r.Hits), q.Partial)
		}
	}
}

func TestNewEngineKeepsCallerOrder(t *testing.T) {
	docs := []Doc{
		{ID: "IL-2", Date: "2020-01-01", Title: [2]string{"etcd quorum", ""}},
		{ID: "IL-1", Date: "2024-01-01", Title: [2]string{"etcd quorum", ""}},
	}
	r := NewEngine(docs, nil).Search("etcd", nil)
	// Equal scores: the newer case first, named by its place in docs.
	if len(r.Hits) != 2 || r.Hits[0].Doc != 1 || r.Hits[1].Doc != 0 {
		t.Errorf("hits %+v, want docs 1 then 0", r.Hits)
	}
}
