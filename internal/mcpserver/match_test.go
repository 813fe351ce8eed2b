package mcpserver

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestWhyMatched checks that every hit says which of the query's words it
// has and where, and that what it says is true of the case.
func TestWhyMatched(t *testing.T) {
	srv, cs := sharedServer(t)
	m := srv.live.Current()
	for _, q := range []string{"ingress 404", "로드 밸런서 헬스 체크", "HubSpot"} {
		var out searchOutput
		text := callTool(t, cs, "search_incidents", map[string]any{"query": q, "limit": 15}, &out)
		if len(out.Cases) == 0 {
			t.Fatalf("%q: no cases", q)
		}
		for _, it := range out.Cases {
			if len(it.Matched) == 0 {
				t.Errorf("%q: %s says nothing of why it matched", q, it.ID)
			}
			c := m.lib.ByID[it.ID]
			for _, w := range it.Matched {
				if !strings.Contains(strings.ToLower(q), strings.ToLower(w.Word)) || len(w.Fields) == 0 {
					t.Errorf("%q: %s matched %+v", q, it.ID, w)
				}
				if slices.Contains(w.Fields, "title") {
					set := map[string]bool{}
					termSet(set, c.Title.En, c.Title.Ko)
					if !set[queryWords(w.Word)[0].term] {
						t.Errorf("%q: %s: %q is not in the title", q, it.ID, w.Word)
					}
				}
			}
		}
		if want := map[bool]string{false: "matched: ", true: "일치: "}[hasHangul(q)]; strings.Count(text, want) != len(out.Cases) {
			t.Errorf("%q: %d lines %q for %d cases", q, strings.Count(text, want), want, len(out.Cases))
		}
	}
	var out searchOutput
	callTool(t, cs, "search_incidents", map[string]any{"query": "HubSpot"}, &out)
	if len(out.Cases) == 0 || !slices.ContainsFunc(out.Cases[0].Matched, func(w matchedWord) bool { return slices.Contains(w.Fields, "org") }) {
		t.Errorf("HubSpot: %+v", out.Cases)
	}
}

// TestDidYouMean checks that suggestions are whole words the library
// writes, never index stems, and come beside partial results too.
func TestDidYouMean(t *testing.T) {
	srv, cs := sharedServer(t)
	m := srv.live.Current()
	for _, tt := range []struct{ query, want string }{
		{"kuberntes", "kubernetes"},
		{"ingres controler", "ingress controller"},
		{"certifcate expird", "certificate expired"},
		{"업그래드", "업그레이드"},
		{"인그레스 업그래드", "인그레스 업그레이드"}, // partial: 인그레스 matches
	} {
		var out searchOutput
		text := callTool(t, cs, "search_incidents", map[string]any{"query": tt.query}, &out)
		if out.DidYouMean != tt.want || !strings.Contains(text, strconv.Quote(tt.want)) {
			t.Errorf("%q: did you mean %q, want %q", tt.query, out.DidYouMean, tt.want)
		}
		for _, w := range strings.Fields(out.DidYouMean) {
			if m.libraryWords().count[w] == 0 {
				t.Errorf("%q: suggestion %q is not a word of the library", tt.query, w)
			}
		}
	}
	var out searchOutput
	callTool(t, cs, "search_incidents", map[string]any{"query": "인그레스 업그래드"}, &out)
	if !out.Partial || out.Total == 0 {
		t.Errorf("인그레스 업그래드: partial %v, %d cases", out.Partial, out.Total)
	}
	var exact searchOutput
	callTool(t, cs, "search_incidents", map[string]any{"query": "ingress"}, &exact)
	if exact.DidYouMean != "" {
		t.Errorf("ingress: did you mean %q", exact.DidYouMean)
	}
}

// TestSearchCursor pages through a search: the pages together are the
// engine's ranking, without gaps or repeats; counts come only when asked.
func TestSearchCursor(t *testing.T) {
	srv, cs := sharedServer(t)
	m := srv.live.Current()
	const q = "kubernetes"
	var want []string
	for _, h := range m.engine.Search(q, nil).Hits {
		want = append(want, m.lib.Cases[h.Doc].ID)
	}
	var got []string
	args := map[string]any{"query": q, "limit": 15}
	for pages := 0; ; pages++ {
		if pages > len(want) {
			t.Fatal("the cursor does not end")
		}
		var out searchOutput
		callTool(t, cs, "search_incidents", args, &out)
		if out.Counts != nil {
			t.Errorf("counts without asking: %v", out.Counts)
		}
		for _, it := range out.Cases {
			got = append(got, it.ID)
		}
		if out.NextCursor == "" {
			break
		}
		args["cursor"] = out.NextCursor
	}
	if len(want) <= 20 || !slices.Equal(got, want) {
		t.Errorf("paged %d cases, the engine ranks %d", len(got), len(want))
	}
}
