package mcpserver

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/repotest"
	"incidentlib/internal/search"
	"incidentlib/internal/webtest"
)

func TestSearch(t *testing.T) {
	srv, cs := sharedServer(t)
	m := srv.live.Current()
	for _, tt := range []struct {
		query, lang string
		want        []string // among the results
	}{
		{"load balancer", "en", []string{"IL-0495", "IL-0338", "IL-0054"}},
		{"로드 밸런서가", "ko", []string{"IL-0495", "IL-0338", "IL-0054"}},
		{"로드밸런서", "ko", []string{"IL-0495", "IL-0338", "IL-0054"}},
		{"헬스 체크", "en", []string{"IL-0495"}}, // a Korean label finds the case whatever the answer's language
		{"Health check", "ko", []string{"IL-0495"}},
	} {
		var out searchOutput
		text := callTool(t, cs, "search_incidents", map[string]any{"query": tt.query, "lang": tt.lang, "limit": 50, "counts": true}, &out)
		var ids []string
		for _, it := range out.Cases {
			ids = append(ids, it.ID)
			c := m.lib.ByID[it.ID]
			title, _ := c.Title.In(tt.lang)
			if it.Title != title || !strings.Contains(it.URL, "/"+tt.lang+"/") || it.Score <= 0 {
				t.Errorf("%q %s: %+v", tt.query, tt.lang, it)
			}
			for _, part := range []string{it.ID, it.Title, it.Org, dateText(tt.lang, c.Date), it.URL} {
				if !strings.Contains(text, part) {
					t.Errorf("%q: text lacks %q", tt.query, part)
				}
			}
		}
		for _, id := range tt.want {
			if !slices.Contains(ids, id) {
				t.Errorf("%q did not find %s (found %v)", tt.query, id, ids)
			}
		}
		if out.Total != len(out.Cases) || len(out.Counts) == 0 {
			t.Errorf("%q: total %d, %d cases, counts %v", tt.query, out.Total, len(out.Cases), out.Counts)
		}
	}

	// Filters narrow; counts are keyed by argument name.
	var all, some searchOutput
	callTool(t, cs, "search_incidents", map[string]any{"query": "ingress", "counts": true}, &all)
	callTool(t, cs, "search_incidents", map[string]any{"query": "ingress", "root_causes": []string{"software-bug"}, "limit": 50}, &some)
	if some.Total == 0 || some.Total >= all.Total || some.Total != countOf(all, "root_causes", "software-bug") {
		t.Errorf("ingress: %d cases, %d with root_causes=software-bug (counted %d)", all.Total, some.Total, countOf(all, "root_causes", "software-bug"))
	}
	for _, it := range some.Cases {
		if it.RootCause != "software-bug" {
			t.Errorf("filtered result %s has root cause %s", it.ID, it.RootCause)
		}
	}
	// Every facet filters: each result has one of the terms, and as many
	// match as the unfiltered search counted for the term.
	var broad searchOutput
	callTool(t, cs, "search_incidents", map[string]any{"query": "kubernetes", "limit": 50, "counts": "true"}, &broad)
	for _, f := range cases.Facets {
		if !f.Shows(cases.InSearch) {
			continue
		}
		facet, arg := f.Name, argName(f.Name)
		term, most := "", 0
		for id, n := range countsOf(broad, arg) {
			if n > most || (n == most && id < term) {
				term, most = id, n
			}
		}
		if most == 0 && !f.Controlled && len(shared.srv.live.Current().model.Topics()[facet].Topics) == 0 {
			t.Logf("no case of this library has a term of %s", facet) // products, before the cases name any
			continue
		}
		if most == 0 {
			t.Errorf("kubernetes: no counts for %s", arg)
			continue
		}
		var f searchOutput
		callTool(t, cs, "search_incidents", map[string]any{"query": "kubernetes", "limit": 50, arg: []string{term}}, &f)
		if f.Total != most || len(f.Cases) != min(most, searchMax) {
			t.Errorf("kubernetes with %s=%s: %d cases, counted %d", arg, term, f.Total, most)
		}
		for _, it := range f.Cases {
			if !slices.Contains(termsOf(m.lib.ByID[it.ID], facet), term) {
				t.Errorf("kubernetes with %s=%s found %s, which does not have it", arg, term, it.ID)
			}
		}
	}
	// The limit picks the best.
	var two searchOutput
	callTool(t, cs, "search_incidents", map[string]any{"query": "ingress", "limit": 2}, &two)
	if len(two.Cases) != 2 || two.Cases[0].ID != all.Cases[0].ID || two.Total != all.Total {
		t.Errorf("limit 2: %+v", two)
	}
	// Nothing found: a suggestion, or the filters to drop.
	var typo searchOutput
	text := callTool(t, cs, "search_incidents", map[string]any{"query": "ingres"}, &typo)
	if typo.Total == 0 && (typo.DidYouMean == "" || !strings.Contains(text, "Did you mean")) {
		t.Errorf("ingres: no suggestion: %s", text)
	}
	var none searchOutput
	text = callTool(t, cs, "search_incidents", map[string]any{"query": "zzqxv"}, &none)
	if none.Total != 0 || len(none.Cases) != 0 || !strings.Contains(text, `No case matches "zzqxv"`) {
		t.Errorf("zzqxv: %s", text)
	}
	var dropped searchOutput
	text = callTool(t, cs, "search_incidents", map[string]any{"query": "IngressNightmare", "years": []string{"2019"}}, &dropped)
	if dropped.Total != 0 || dropped.WithoutFilters == 0 || !strings.Contains(text, "Without the filters") {
		t.Errorf("IngressNightmare in 2019: %s", text)
	}
}

// browserAnswer is what static/js/search.js answers, as the node script
// below prints it.
type browserAnswer struct {
	IDs        []string                  `json:"ids"`
	Scores     []float64                 `json:"scores"`
	Total      int                       `json:"total"`
	Partial    bool                      `json:"partial"`
	Facets     map[string][]browserCount `json:"facets"`
	Suggestion *struct {
		Query   string `json:"query"`
		Filters int    `json:"filters"`
	} `json:"suggestion"`
}

type browserCount struct {
	ID    string `json:"id"`
	Count int    `json:"count"`
}

const browserScript = `
const fs = require("node:fs"), path = require("node:path");
const [js, dir, queries] = process.argv.slice(1);
const S = require(js);
const load = (name) => Promise.resolve(JSON.parse(fs.readFileSync(path.join(dir, name + ".json"), "utf8")));
(async () => {
  const out = [];
  for (const q of JSON.parse(fs.readFileSync(queries, "utf8"))) {
    const res = await new S.Engine(load).search(q.q, { filters: q.filters || {}, facets: true, limit: 1000 });
    out.push({ ids: res.hits.map((h) => h.record.id), scores: res.hits.map((h) => h.score), total: res.total,
      partial: res.partial, facets: res.facets, suggestion: res.suggestion });
  }
  process.stdout.write(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
`

// TestSearchMatchesBrowser runs the shared engine vectors
// (internal/search/testdata/engine.json) and queries of its own through
// search_incidents over the repository's content, and through the
// browser's engine (static/js/search.js, in node) over the search index a
// build writes for the same content: both must give the same cases in the
// same order, the same scores, totals, counts and suggestions. It needs
// node: without it, it is skipped, or fails under CI=true and in make test
// (webtest.Missing).
func TestSearchMatchesBrowser(t *testing.T) {
	webtest.Heavy(t, "runs search.js in node")
	node, err := exec.LookPath("node")
	if err != nil {
		webtest.Missing(t, "node", err)
	}
	srv, cs := sharedServer(t)
	type query struct {
		Name    string              `json:"name"`
		Q       string              `json:"q"`
		Filters map[string][]string `json:"filters,omitempty"`
	}
	var vectors struct{ Queries []query }
	data, err := os.ReadFile(filepath.Join(repotest.Dir(t, "internal"), "search", "testdata", "engine.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &vectors); err != nil {
		t.Fatal(err)
	}
	qs := append(vectors.Queries,
		query{Name: "particle", Q: "캐시를"},
		query{Name: "component and year", Q: "ingress", Filters: map[string][]string{"components": {"ingress"}, "years": {"2025", "2024"}}},
		query{Name: "typo", Q: "kuberntes upgarde"},
		query{Name: "mixed", Q: "GKE 노드 kernel panic"},
		query{Name: "filters leave none", Q: "IngressNightmare", Filters: map[string][]string{"years": {"2019"}}},
	)

	// Queries whose filters name terms this library does not have are
	// tool errors here; they are left out.
	m := srv.live.Current()
	var usable []query
	for _, q := range qs {
		ok := true
		for facet, ids := range q.Filters {
			for _, id := range ids {
				ok = ok && cases.FacetByName(facet) != nil && slices.Contains(m.terms(facet), id)
			}
		}
		if ok {
			usable = append(usable, q)
		}
	}
	if len(usable) < 20 {
		t.Fatalf("only %d of %d queries fit the library", len(usable), len(qs))
	}

	dir := t.TempDir()
	docs, labels := search.Docs(m.lib), m.labels
	err = search.Build(docs, labels, false, func(p string, data []byte) error {
		f := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			return err
		}
		return os.WriteFile(f, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	qfile := filepath.Join(dir, "queries.json")
	data, _ = json.Marshal(usable)
	if err := os.WriteFile(qfile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	js := filepath.Join(repotest.Dir(t, "static"), "js", "search.js")
	tl := webtest.Tool{Name: "node (search.js)", Path: node, Args: []string{"-e", browserScript, js, filepath.Join(dir, "search"), qfile},
		Runtime: "node", Timeout: 3 * time.Minute}
	res := webtest.Run(t, tl)
	var browser []browserAnswer
	if err := json.Unmarshal(res.Stdout, &browser); err != nil {
		webtest.BadReport(t, tl, res, err)
	}
	round := func(x float64) float64 { return math.Round(x*100) / 100 } // search_incidents gives two decimals
	found := 0
	for k, q := range usable {
		b := browser[k]
		args := map[string]any{"query": q.Q, "limit": searchMax, "counts": true}
		for facet, ids := range q.Filters {
			args[argName(facet)] = ids
		}
		res, err := cs.CallTool(t.Context(), toolCall("search_incidents", args))
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			// A blank query is an error here; the page shows every case.
			if strings.TrimSpace(q.Q) != "" {
				t.Errorf("%s: %q: %s", q.Name, q.Q, resultText(res))
			}
			continue
		}
		var got searchOutput
		data, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatal(err)
		}
		if got.Total > 0 {
			found++
		}
		var ids []string
		var scores []float64
		for _, it := range got.Cases {
			ids = append(ids, it.ID)
			scores = append(scores, round(it.Score))
		}
		var bscores []float64
		for _, s := range b.Scores[:min(len(b.Scores), searchMax)] {
			bscores = append(bscores, round(s))
		}
		bcounts := map[string]map[string]int{}
		for facet, terms := range b.Facets {
			for _, tc := range terms {
				if tc.Count > 0 {
					if bcounts[argName(facet)] == nil {
						bcounts[argName(facet)] = map[string]int{}
					}
					bcounts[argName(facet)][tc.ID] = tc.Count
				}
			}
		}
		var bSuggest string
		var bDrop int
		if b.Suggestion != nil {
			bSuggest, bDrop = b.Suggestion.Query, b.Suggestion.Filters
		}
		// An answer is trimmed to stay under its size budget, so it holds
		// the browser's first hits, in order, and at least one when the
		// browser has any.
		n := min(len(ids), len(b.IDs))
		switch {
		case len(ids) > searchMax || !slices.Equal(ids, b.IDs[:n]) || (len(ids) == 0) != (len(b.IDs) == 0):
			t.Errorf("%s: %q: search_incidents %v, browser %v", q.Name, q.Q, ids, b.IDs)
		case !slices.Equal(scores, bscores[:min(len(scores), len(bscores))]):
			t.Errorf("%s: %q: scores %v, browser %v", q.Name, q.Q, scores, bscores)
		case got.Total != b.Total || got.Partial != b.Partial:
			t.Errorf("%s: %q: total %d partial %v, browser %d %v", q.Name, q.Q, got.Total, got.Partial, b.Total, b.Partial)
		case !reflect.DeepEqual(allCounts(got), bcounts) && !(len(got.Counts) == 0 && len(bcounts) == 0):
			t.Errorf("%s: %q: counts %v, browser %v", q.Name, q.Q, allCounts(got), bcounts)
		// Did-you-mean offers whole words of the library where the
		// browser offers index stems ("kubernet"), so the two agree on
		// whether to suggest, not on the words.
		case (bSuggest != "" && got.DidYouMean == "") || got.WithoutFilters != bDrop:
			t.Errorf("%s: %q: suggestion %q/%d, browser %q/%d", q.Name, q.Q, got.DidYouMean, got.WithoutFilters, bSuggest, bDrop)
		}
	}
	if found < 15 {
		t.Errorf("only %d queries found cases: the comparison says little", found)
	}
}

// countsOf returns the counts of one filter argument by term id.
func countsOf(out searchOutput, arg string) map[string]int {
	m := map[string]int{}
	for _, fc := range out.Counts {
		if fc.Argument == arg {
			for _, tc := range fc.Terms {
				m[tc.ID] = tc.Cases
			}
		}
	}
	return m
}

func countOf(out searchOutput, arg, id string) int { return countsOf(out, arg)[id] }

// allCounts returns the counts by argument and term id.
func allCounts(out searchOutput) map[string]map[string]int {
	m := map[string]map[string]int{}
	for _, fc := range out.Counts {
		m[fc.Argument] = countsOf(out, fc.Argument)
	}
	return m
}
