package search

import (
	"golang.org/x/text/unicode/norm"

	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

type vectorCase struct {
	Name   string   `json:"name"`
	In     string   `json:"in"`
	Index  []string `json:"index"`
	Query  []Group  `json:"query"`
	Typing []Group  `json:"typing"`
}

type vectorFile struct {
	About string       `json:"about"`
	Cases []vectorCase `json:"cases"`
}

var vectorsPath = filepath.Join("..", "..", "testdata", "tokenize", "vectors.json")

// TestVectors runs the vectors that js-test/tokenize.test.js runs against
// the browser tokenizer, so that the two cannot drift apart.
func TestVectors(t *testing.T) {
	data, err := os.ReadFile(vectorsPath)
	if err != nil {
		t.Fatal(err)
	}
	var vf vectorFile
	if err := json.Unmarshal(data, &vf); err != nil {
		t.Fatal(err)
	}
	if len(vf.Cases) < 20 {
		t.Fatalf("only %d vectors; the file looks truncated", len(vf.Cases))
	}
	for _, c := range vf.Cases {
		got := IndexTerms(c.In)
		if got == nil {
			got = []string{}
		}
		if !reflect.DeepEqual(got, c.Index) {
			t.Errorf("%s: IndexTerms(%q) = %q, want %q", c.Name, c.In, got, c.Index)
		}
		if g := Query(c.In, false); !reflect.DeepEqual(g, c.Query) {
			t.Errorf("%s: Query(%q, false) = %+v, want %+v", c.Name, c.In, g, c.Query)
		}
		if g := Query(c.In, true); !reflect.DeepEqual(g, c.Typing) {
			t.Errorf("%s: Query(%q, true) = %+v, want %+v", c.Name, c.In, g, c.Typing)
		}
	}
}

func TestPlainNFC(t *testing.T) {
	for _, s := range []string{"load balancer", "로드 밸런서가", "café", "2024년 8월"} {
		if !plainNFC(s) || norm.NFC.String(s) != s {
			t.Errorf("%q: plainNFC=%v, NFC changes it: %v", s, plainNFC(s), norm.NFC.String(s) != s)
		}
	}
	// Decomposed text, a trailing jamo after a syllable and a singleton
	// decomposition all need the real normalizer.
	for _, s := range []string{"cafe\u0301", "가\u11a8", "\u2000", "\u1100\u1161"} {
		if plainNFC(s) {
			t.Errorf("%q taken as NFC", s)
		}
	}
}
