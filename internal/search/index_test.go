package search

import (
	"bytes"
	"encoding/json"
	"fmt"
	"incidentlib/internal/repotest"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// goldenConfig has small buckets and groups, so that the six fixture cases
// spread over several files and the engines must pick the right ones.
var goldenConfig = config{
	bucketMin: 256, bucketMax: 1024, bucketSpread: 4,
	groupMin: 3, groupMax: 6, groupSpread: 2,
	excerptRunes: 320, scripts: true,
}

func readFixture(t testing.TB) ([]Doc, Labels) {
	t.Helper()
	var docs []Doc
	var labels Labels
	for name, v := range map[string]any{"docs.json": &docs, "labels.json": &labels} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return docs, labels
}

func buildMap(t testing.TB, docs []Doc, labels Labels, cfg config) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := build(docs, labels, func(path string, data []byte) error {
		if _, dup := files[path]; dup {
			return fmt.Errorf("%s written twice", path)
		}
		files[path] = append([]byte(nil), data...)
		return nil
	}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestGolden keeps testdata/golden, the index that js-test/engine.test.js
// runs the browser engine against, in step with the builder.
func TestGolden(t *testing.T) {
	docs, labels := readFixture(t)
	files := buildMap(t, docs, labels, goldenConfig)
	dir := filepath.Join("testdata", "golden")
	if repotest.Update() {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		for p, data := range files {
			full := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	onDisk := map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		onDisk[rel] = true
		want, _ := os.ReadFile(p)
		if got, ok := files[rel]; !ok {
			t.Errorf("%s is in the golden index but no longer built", rel)
		} else if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the golden file; run go test ./internal/search -update and review the diff", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range files {
		if !onDisk[p] {
			t.Errorf("%s is built but not in the golden index", p)
		}
	}
}

func TestDeterministic(t *testing.T) {
	docs, labels := readFixture(t)
	docs = append(docs, synthDocs(300, 7)...)
	a := buildMap(t, docs, labels, defaultConfig)
	shuffled := append([]Doc(nil), docs...)
	rand.New(rand.NewSource(1)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	b := buildMap(t, shuffled, labels, defaultConfig)
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	for p := range a {
		if !bytes.Equal(a[p], b[p]) {
			t.Errorf("%s differs between two builds of the same cases in another order", p)
		}
	}
}

func TestDuplicateID(t *testing.T) {
	docs := []Doc{{ID: "IL-1", Date: "2020-01-01"}, {ID: "IL-1", Date: "2021-01-01"}}
	err := Build(docs, nil, false, func(string, []byte) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "IL-1") {
		t.Fatalf("got %v, want an error naming IL-1", err)
	}
}

// TestNamesHostsKeep checks that no index file has a name that a static
// host drops or hides: GitHub Pages' Jekyll skips names that start with
// "_", ".", "#" or "~" or end in "~". Online and offline builds alike.
func TestNamesHostsKeep(t *testing.T) {
	docs, labels := readFixture(t)
	for _, scripts := range []bool{false, true} {
		cfg := defaultConfig
		cfg.scripts = scripts
		for p := range buildMap(t, docs, labels, cfg) {
			for _, part := range strings.Split(p, "/") {
				if strings.ContainsAny(part[:1], "_.#~") || strings.HasSuffix(part, "~") {
					t.Errorf("%s: a host that runs Jekyll would not publish it", p)
				}
			}
		}
	}
	// The keys of the escapes, long keys and the empty boundary.
	long := strings.Repeat("가", 30)
	for _, s := range []string{"", "+", "가", "\U0001f600", long, "a" + long} {
		k := fileKey(s)
		if strings.ContainsAny(k[:1], "_.#~") {
			t.Errorf("fileKey(%q) = %q", s, k)
		}
	}
	if a, b := fileKey(long), fileKey("a"+long); a == b {
		t.Errorf("two long keys share the name %s", a)
	}
}

// TestScriptTwins checks that, for the offline bundle, every JSON file has
// its script twin holding the same value under the right key, and that other
// builds write no scripts.
func TestScriptTwins(t *testing.T) {
	docs, labels := readFixture(t)
	for p := range buildMap(t, docs, labels, defaultConfig) {
		if !strings.HasSuffix(p, ".json") {
			t.Errorf("an online build wrote %s", p)
		}
	}
	cfg := defaultConfig
	cfg.scripts = true
	files := buildMap(t, docs, labels, cfg)
	n := 0
	for p, data := range files {
		if !strings.HasSuffix(p, ".json") {
			continue
		}
		n++
		name := strings.TrimSuffix(strings.TrimPrefix(p, "search/"), ".json")
		want := "window.__ilsearch=window.__ilsearch||{};__ilsearch[\"" + name + "\"]=" + string(data) + ";\n"
		if got := string(files["search/"+name+".js"]); got != want {
			t.Errorf("%s.js = %.80q…, want %.80q…", name, got, want)
		}
		if !json.Valid(data) {
			t.Errorf("%s is not valid JSON", p)
		}
	}
	if n*2 != len(files) {
		t.Errorf("%d JSON files but %d files in all", n, len(files))
	}
	for _, p := range []string{"search/manifest.json", "search/b/-.json", "search/t/-.json", "search/r/0.json", "search/r/5.json", "search/facets.json", "search/f/components.json", "search/f/orgs.json"} {
		if files[p] == nil {
			t.Errorf("%s missing", p)
		}
	}
}

// querySuite is testdata/queries.json, the relevance suite that the Go
// reference reader, the Go engine and the browser engine all run.
type querySuite []struct {
	Name, Q, First   string
	Include, Exclude []string
	Order            []string
	Partial          bool
	Filters          map[string][]string
}

func readQuerySuite(t *testing.T) querySuite {
	t.Helper()
	var qf struct{ Queries querySuite }
	data, err := os.ReadFile(filepath.Join("testdata", "queries.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &qf); err != nil {
		t.Fatal(err)
	}
	return qf.Queries
}

// check runs every query of the suite through search and reports what
// it got wrong.
func (qs querySuite) check(t *testing.T, search func(q string, filters map[string][]string) (ids []string, partial bool)) {
	t.Helper()
	for _, q := range qs {
		ids, partial := search(q.Q, q.Filters)
		got := map[string]bool{}
		for _, id := range ids {
			got[id] = true
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
		if q.Order != nil && strings.Join(ids, " ") != strings.Join(q.Order, " ") {
			t.Errorf("%s: %q gave %v, want %v", q.Name, q.Q, ids, q.Order)
		}
		if partial != q.Partial {
			t.Errorf("%s: %q partial = %v, want %v", q.Name, q.Q, partial, q.Partial)
		}
	}
}

func TestQueries(t *testing.T) {
	docs, labels := readFixture(t)
	idx := loadIndex(t, buildMap(t, docs, labels, goldenConfig))
	readQuerySuite(t).check(t, idx.search)
}

// TestKoreanMatching states the particle and spacing rules on the smallest
// possible documents.
func TestKoreanMatching(t *testing.T) {
	for _, c := range []struct {
		text, q string
		match   bool
	}{
		{"로드 밸런서를 늘렸다", "로드 밸런서가", true},
		{"로드 밸런서를 늘렸다", "로드밸런서", true},
		{"로드 밸런서를 늘렸다", "밸런서가", true},
		{"로드밸런서가 멈췄다", "로드 밸런서", true},
		{"로드밸런서가 멈췄다", "밸런서를", true},
		{"인스턴스들이 내려갔다", "인스턴스를", true},
		{"헬스 체크가 실패했다", "헬스체크", true},
		{"로드 테스트를 넓혔다", "로드밸런서", false},
		{"밸런스를 잡았다", "밸런서", false},
		{"로드 (밸런서)", "로드밸런서", false}, // punctuation is not a compound
		{"HubSpot 은 14:20 UTC에 확인했다", "utc에", true},
		{"HubSpot 은 14:20 UTC에 확인했다", "hubspot은 확인", true},
	} {
		files := buildMap(t, []Doc{
			{ID: "IL-1", Date: "2024-01-01", Body: []string{"", c.text}},
			{ID: "IL-2", Date: "2024-01-02", Body: []string{"unrelated", "관계없는 글"}},
		}, nil, defaultConfig)
		ids, partial := loadIndex(t, files).search(c.q, nil)
		got := len(ids) == 1 && ids[0] == "IL-1" && !partial
		if got != c.match {
			t.Errorf("%q in %q: found %v (partial %v), want match %v", c.q, c.text, ids, partial, c.match)
		}
	}
}

func TestRanking(t *testing.T) {
	docs := []Doc{
		{ID: "IL-1", Date: "2020-01-01", Title: [2]string{"DNS outage", ""}},
		{ID: "IL-2", Date: "2020-01-01", Body: []string{"A long body that mentions etcd once among many other words about nodes", ""}},
		{ID: "IL-3", Date: "2022-01-01", Title: [2]string{"etcd quorum lost", ""}},
		{ID: "IL-4", Date: "2021-01-01", Facets: map[string][]string{"components": {"etcd"}}},
		{ID: "IL-5", Date: "2023-06-01", Title: [2]string{"DNS outage", ""}},
		{ID: "IL-6", Date: "2023-06-01", Title: [2]string{"DNS outage", ""}},
	}
	// The same amount of other text in every case, so that length
	// normalisation does not decide the order.
	filler := strings.Repeat("unrelated words about something else entirely ", 8)
	for i := range docs {
		docs[i].Body = append(docs[i].Body, filler)
	}
	labels := Labels{"components": {"etcd": {"etcd", "etcd"}}}
	idx := loadIndex(t, buildMap(t, docs, labels, defaultConfig))
	for _, c := range []struct{ q, want string }{
		// Title beats label beats body.
		{"etcd", "IL-3 IL-4 IL-2"},
		// Equal scores: newest first, then by id.
		{"dns outage", "IL-5 IL-6 IL-1"},
	} {
		ids, _ := idx.search(c.q, nil)
		if got := strings.Join(ids, " "); got != c.want {
			t.Errorf("%q ranked %s, want %s", c.q, got, c.want)
		}
	}
	// A rarer word weighs more (idf): "quorum" appears in one case, "etcd" in three.
	if w1, w2 := idx.score("quorum", "IL-3"), idx.score("etcd", "IL-3"); w1 <= w2 {
		t.Errorf("quorum weighs %v in IL-3, etcd %v; the rarer word should weigh more", w1, w2)
	}
}

// TestBuckets builds a thousand cases with small buckets and groups and
// checks that buckets and groups stay within their bounds, that every term
// is in the bucket the manifest points to, and that the files are named by
// their first boundary.
func TestBuckets(t *testing.T) {
	cfg := config{bucketMin: 1024, bucketMax: 2048, bucketSpread: 8, groupMin: 4, groupMax: 9, groupSpread: 3, excerptRunes: 80}
	docs := synthDocs(1000, 3)
	files := buildMap(t, docs, nil, cfg)
	idx := loadIndex(t, files)
	if len(idx.bounds) < 50 || len(idx.m.Groups) < 5 {
		t.Fatalf("%d buckets in %d groups; the test needs more to exercise splitting", len(idx.bounds), len(idx.m.Groups))
	}
	for g, part := range idx.groups {
		if len(part) > cfg.groupMax || len(part) < cfg.groupMin && g < len(idx.groups)-1 {
			t.Errorf("group %d has %d buckets, want %d to %d", g, len(part), cfg.groupMin, cfg.groupMax)
		}
	}
	buckets := 0
	for p := range files {
		if strings.HasPrefix(p, "search/t/") {
			buckets++
		}
	}
	if buckets != len(idx.bounds) {
		t.Errorf("%d bucket files, the group files list %d", buckets, len(idx.bounds))
	}
	for i, b := range idx.bounds {
		if i > 0 && b <= idx.bounds[i-1] {
			t.Errorf("bucket boundaries out of order: %q then %q", idx.bounds[i-1], b)
		}
		data := files["search/t/"+fileKey(b)+".json"]
		if len(data) > cfg.bucketMax && len(idx.buckets[i]) > 1 {
			t.Errorf("bucket %d has %d bytes and %d terms, over the %d-byte bound", i, len(data), len(idx.buckets[i]), cfg.bucketMax)
		}
		// A bucket under bucketMin ends only where the next one's first
		// entry would take it over bucketMax.
		if i < len(idx.bounds)-1 && len(data) < cfg.bucketMin {
			var next []json.RawMessage
			if err := json.Unmarshal(files["search/t/"+fileKey(idx.bounds[i+1])+".json"], &next); err != nil || len(next) == 0 {
				t.Fatalf("bucket %d: %v", i+1, err)
			}
			if len(data)+len(next[0])+1 <= cfg.bucketMax {
				t.Errorf("bucket %d has %d bytes, under the %d-byte bound, and the next entry (%d bytes) would fit", i, len(data), cfg.bucketMin, len(next[0]))
			}
		}
		for term := range idx.buckets[i] {
			if got := idx.bucketOf(term); got != i {
				t.Errorf("term %q is in bucket %d but the manifest points to %d", term, i, got)
			}
		}
	}
	if len(idx.recs) != len(docs) {
		t.Errorf("%d records, want %d", len(idx.recs), len(docs))
	}
	// Records are in document order: newest first.
	for i := 1; i < len(idx.recs); i++ {
		if idx.recs[i].Date > idx.recs[i-1].Date {
			t.Fatalf("record %d (%s) is newer than record %d (%s)", i, idx.recs[i].Date, i-1, idx.recs[i-1].Date)
		}
	}
}

// TestEditKeepsOtherFiles edits one case the way an author does (its
// title, a word of its body) and adds one, and checks that the index files
// that change are those of the terms that changed: buckets and groups are
// cut by what they hold, and a posting depends on its own case alone.
func TestEditKeepsOtherFiles(t *testing.T) {
	docs := synthDocs(600, 5)
	before := buildMap(t, docs, nil, defaultConfig)
	changed := func(after map[string][]byte) (n int, names []string) {
		for p, data := range after {
			if !bytes.Equal(before[p], data) {
				n++
				names = append(names, p)
			}
		}
		slices.Sort(names)
		return n, names
	}
	edited := slices.Clone(docs)
	edited[300].Title[0] += " (edited) quokka"
	n, names := changed(buildMap(t, edited, nil, defaultConfig))
	// The record, the buckets of "edit" and "quokka" (a new term may cut
	// a bucket in two, and a new bucket may start a new group), their
	// group files, two suggestion lists, and the manifest when the groups
	// change.
	if n == 0 || n > 10 {
		t.Errorf("editing a title changed %d files, want 1 to 10: %v", n, names)
	}
	buckets := 0
	for p := range before {
		if strings.HasPrefix(p, "search/t/") {
			buckets++
		}
	}
	if buckets < 100 {
		t.Fatalf("only %d buckets; the test needs many", buckets)
	}
}

func TestFacetFiles(t *testing.T) {
	docs, labels := readFixture(t)
	files := buildMap(t, docs, labels, defaultConfig)
	var m manifest
	if err := json.Unmarshal(files["search/manifest.json"], &m); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(m.Facets, " "), "components root-causes domains orgs years severities"; got != want {
		t.Errorf("manifest facets %q, want %q", got, want)
	}
	var f facetData
	if err := json.Unmarshal(files["search/f/components.json"], &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Terms) == 0 || f.Terms[0].ID != "ingress" || f.Terms[0].Count != 3 || f.Terms[0].Label != [2]string{"Ingress controller", "인그레스 컨트롤러"} {
		t.Errorf("first component term = %+v, want ingress with 3 cases and its labels", f.Terms[0])
	}
	if err := json.Unmarshal(files["search/f/orgs.json"], &f); err != nil {
		t.Fatal(err)
	}
	for _, term := range f.Terms {
		if term.ID == "example-corp" && term.Label != [2]string{"Example Corp", "예시 회사"} {
			t.Errorf("org label %v, want the names the case gives", term.Label)
		}
	}
}

// index is a reference reader of a built index, for the tests: it follows
// the same rules as the browser engine (static/js/search.js) without the
// prefix bucket limit and the suggestions.
type index struct {
	m       manifest
	groups  [][]string // the boundaries of each group's buckets
	bounds  []string
	buckets []map[string][]posting
	recs    []record // English records
	facets  map[string]facetData
}

func loadIndex(t testing.TB, files map[string][]byte) *index {
	t.Helper()
	idx := &index{facets: map[string]facetData{}}
	must := func(p string, v any) {
		if err := json.Unmarshal(files[p], v); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	must("search/manifest.json", &idx.m)
	if idx.m.Version != formatVersion || idx.m.Layout.Key != keyRule {
		t.Fatalf("manifest version %d, key rule %q", idx.m.Version, idx.m.Layout.Key)
	}
	file := func(template, value string) string { return "search/" + path(template, value) + ".json" }
	for g, first := range idx.m.Groups {
		var part []string
		must(file(idx.m.Layout.Groups, fileKey(first)), &part)
		if len(part) == 0 || part[0] != first {
			t.Fatalf("group %d starts at %q, the manifest says %q", g, part, first)
		}
		idx.groups = append(idx.groups, part)
		idx.bounds = append(idx.bounds, part...)
	}
	for i, b := range idx.bounds {
		var entries [][2]json.RawMessage
		must(file(idx.m.Layout.Buckets, fileKey(b)), &entries)
		b := map[string][]posting{}
		for _, e := range entries {
			var term string
			var pair struct {
				table []int32
				codes string
			}
			raw := []any{&pair.table, &pair.codes}
			if json.Unmarshal(e[0], &term) != nil || json.Unmarshal(e[1], &raw) != nil {
				t.Fatalf("bucket %d: bad entry %s", i, e)
			}
			ps, err := decodePostings(pair.table, pair.codes)
			if err != nil {
				t.Fatalf("bucket %d: term %q: %v", i, term, err)
			}
			b[term] = ps
		}
		idx.buckets = append(idx.buckets, b)
	}
	for d := 0; d < idx.m.Docs; d++ {
		var rec record
		must(file(idx.m.Layout.Records, fmt.Sprint(d)), &rec)
		idx.recs = append(idx.recs, rec)
	}
	for _, f := range idx.m.Facets {
		var fd facetData
		must(file(idx.m.Layout.Facets, f), &fd)
		idx.facets[f] = fd
	}
	return idx
}

func (idx *index) bucketOf(term string) int {
	return sort.Search(len(idx.bounds), func(i int) bool { return idx.bounds[i] > term }) - 1
}

// postings returns the documents of term with its score in each: the
// term's idf times the posting's weight.
func (idx *index) postings(term string) map[int]float64 {
	i := idx.bucketOf(term)
	if i < 0 {
		return nil
	}
	ps, ok := idx.buckets[i][term]
	if !ok {
		return nil
	}
	out := map[int]float64{}
	w := idf(len(ps), idx.m.Docs)
	for _, p := range ps {
		out[int(p.doc)] = w * float64(p.score) / float64(idx.m.Scale)
	}
	return out
}

func (idx *index) score(term, id string) float64 {
	for d, s := range idx.postings(term) {
		if idx.recs[d].ID == id {
			return s
		}
	}
	return 0
}

func (idx *index) search(q string, filters map[string][]string) (ids []string, partial bool) {
	groups := parseQuery(q, true)
	var scores []map[int]float64
	for _, g := range groups {
		best := map[int]float64{}
		put := func(d int, s float64) {
			if s > best[d] {
				best[d] = s
			}
		}
		for _, t := range g.Any {
			for d, s := range idx.postings(t) {
				put(d, s)
			}
		}
		if len(g.All) > 0 {
			sum := map[int]float64{}
			cnt := map[int]int{}
			for _, t := range g.All {
				for d, s := range idx.postings(t) {
					sum[d] += s
					cnt[d]++
				}
			}
			for d, n := range cnt {
				if n == len(g.All) {
					put(d, sum[d]/float64(n))
				}
			}
		}
		if g.Prefix != "" {
			for _, b := range idx.buckets {
				for t := range b {
					if strings.HasPrefix(t, g.Prefix) {
						f := 0.8
						if t == g.Prefix {
							f = 1
						}
						for d, s := range idx.postings(t) {
							put(d, s*f)
						}
					}
				}
			}
		}
		scores = append(scores, best)
	}
	type hit struct {
		doc, matched int
		score        float64
	}
	var hits []hit
	if len(groups) == 0 {
		if len(filters) > 0 {
			for d := range idx.recs {
				hits = append(hits, hit{doc: d})
			}
		}
	} else {
		for d, s := range scores[0] {
			h := hit{doc: d, score: s, matched: 1}
			for _, o := range scores[1:] {
				if v, ok := o[d]; ok {
					h.score += v
					h.matched++
				}
			}
			if h.matched == len(groups) {
				hits = append(hits, h)
			}
		}
		if len(hits) == 0 && len(groups) > 1 {
			partial = true
			acc := map[int]*hit{}
			for _, s := range scores {
				for d, v := range s {
					if acc[d] == nil {
						acc[d] = &hit{doc: d}
					}
					acc[d].score += v
					acc[d].matched++
				}
			}
			for _, h := range acc {
				hits = append(hits, *h)
			}
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.matched != b.matched {
			return a.matched > b.matched
		}
		if a.score != b.score {
			return a.score > b.score
		}
		return a.doc < b.doc
	})
	for _, h := range hits {
		ok := true
		for f, want := range filters {
			any := false
			for _, term := range idx.facets[f].Terms {
				d := 0
				for _, gap := range term.Docs {
					d += gap
					any = any || d == h.doc && slices.Contains(want, term.ID)
				}
			}
			ok = ok && any
		}
		if ok {
			ids = append(ids, idx.recs[h.doc].ID)
		}
	}
	return ids, partial
}

// synthDocs makes n cases from a fixed vocabulary, English and Korean, with
// lengths near those of real cases.
func synthDocs(n int, seed int64) []Doc {
	r := rand.New(rand.NewSource(seed))
	en := strings.Fields(`load balancer ingress controller health check probe timeout latency error rate
		cluster node pod deployment rollout config change certificate expired dns resolution etcd quorum
		memory pressure oom killed cache database connection pool retry storm traffic surge capacity
		autoscaling region zone network partition packet loss bgp route kernel panic disk full volume
		secret rotation webhook admission scheduler kubelet api server throttling rate limit queue backlog`)
	ko := strings.Fields(`로드 밸런서가 인그레스 컨트롤러를 헬스 체크에서 타임아웃이 지연과 오류율이 클러스터의 노드가
		파드를 배포가 롤아웃 설정 변경으로 인증서가 만료돼 DNS 조회가 etcd 쿼럼을 메모리 압박으로 캐시가
		데이터베이스 연결 풀이 재시도 폭증 트래픽이 용량을 오토스케일링이 리전 영역 네트워크 분할 패킷 손실
		커널 패닉 디스크가 가득 차 볼륨을 시크릿 교체 웹훅 스케줄러가 큐에 쌓였다 확인했다 복구됐다`)
	facets := map[string][]string{
		"components": {"ingress", "dns", "etcd", "cache", "database", "cloud-load-balancer", "kubelet", "scheduler"},
		"symptoms":   {"high-latency", "high-error-rate", "connection-resets", "pod-crashloop"},
		"domains":    {"kubernetes", "networking", "aws", "gcp", "azure"},
	}
	text := func(words []string, k int) string {
		var b strings.Builder
		for i := 0; i < k; i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[r.Intn(len(words))])
			if r.Intn(12) == 0 {
				fmt.Fprintf(&b, " %d", r.Intn(2000))
			}
		}
		return b.String()
	}
	docs := make([]Doc, n)
	for i := range docs {
		id := fmt.Sprintf("IL-%05d", i)
		org := fmt.Sprintf("Org %d", r.Intn(n/10+1))
		year := 2015 + r.Intn(11)
		d := Doc{
			ID:      id,
			Date:    fmt.Sprintf("%d-%02d-%02d", year, 1+r.Intn(12), 1+r.Intn(28)),
			Title:   [2]string{text(en, 14), text(ko, 12)},
			Summary: [2]string{text(en, 120), text(ko, 90)},
			Body:    []string{text(en, 500), text(ko, 380)},
			Org:     [2]string{org, org},
			URL:     [2]string{"en/cases/" + id + "/", "ko/cases/" + id + "/"},
			Facets: map[string][]string{
				"orgs":        {strings.ReplaceAll(strings.ToLower(org), " ", "-")},
				"years":       {fmt.Sprint(year)},
				"root-causes": {[]string{"software-bug", "config-error", "capacity"}[r.Intn(3)]},
			},
		}
		for f, terms := range facets {
			for k := 0; k < 1+r.Intn(2); k++ {
				d.Facets[f] = append(d.Facets[f], terms[r.Intn(len(terms))])
			}
		}
		docs[i] = d
	}
	return docs
}

func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		docs := synthDocs(n, 1)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			var bytesOut, files int64
			for i := 0; i < b.N; i++ {
				bytesOut, files = 0, 0
				err := Build(docs, nil, false, func(p string, data []byte) error {
					if strings.HasSuffix(p, ".json") {
						bytesOut += int64(len(data))
						files++
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(bytesOut)/1e6, "MB-json")
			b.ReportMetric(float64(files), "json-files")
		})
	}
}

// TestAppendJSONString checks the shortcut that quotes terms against the
// encoder it stands in for, on strings that take each of its paths.
func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{
		"", "cach", "k8s", "로드", "café", "a\"b", `a\b`, "tab\there", "nul\x00", "del\x7f",
		"bad\xffutf8", "line\u2028sep", "para\u2029sep", "<html>&", "😀", "\u00a0",
	} {
		want := quoteJSON(s)
		if got := string(appendJSONString([]byte("x"), s)); got != "x"+want {
			t.Errorf("appendJSONString(%q) = %s, want x%s", s, got, want)
		}
	}
}

func TestExcerpt(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"Plain text.", 160, "Plain text."},
		{"See [the report](https://example.com/a) and [notes](b).", 160, "See the report and notes."},
		{"Brackets [not a link] (here) stay.", 160, "Brackets [not a link] (here) stay."},
		{"**Bold**, `code` and __under__.", 160, "Bold, code and under."},
		{"First  paragraph\nwraps.\n\nSecond paragraph.", 160, "First paragraph wraps."},
		// A cut near the end falls back to the last space; without one the
		// word is cut.
		{"one two three four five six", 20, "one two three four…"},
		{"one two three four five six", 12, "one two thre…"},
		{"로드 밸런서가 [설정](x) 변경으로 실패했다", 160, "로드 밸런서가 설정 변경으로 실패했다"},
	} {
		if got := excerpt(c.in, c.n); got != c.want {
			t.Errorf("excerpt(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// TestWeightsAreHalves guards the packed postings, which store twice a
// term's frequency as an integer: every field weight must be a multiple of
// one half for that to be exact.
func TestWeightsAreHalves(t *testing.T) {
	for _, w := range []float64{weightTitle, weightLabel, weightOrg, weightSummary, weightBody} {
		if w*2 != math.Trunc(w*2) || w <= 0 {
			t.Errorf("weight %v is not a positive multiple of 1/2", w)
		}
	}
}

// decodePostings reads a term's postings as postings.go describes them, as
// static/js/search.js does.
func decodePostings(table []int32, codes string) ([]posting, error) {
	var out []posting
	n := uint64(len(table))
	v, mul, doc := uint64(0), uint64(1), int64(-1)
	for i := 0; i < len(codes); i++ {
		k := strings.IndexByte(postingDigits, codes[i])
		if k < 0 {
			return nil, fmt.Errorf("character %q is not a digit", codes[i])
		}
		if k >= 32 {
			v += uint64(k-32) * mul
			mul *= 32
			continue
		}
		v += uint64(k) * mul
		if n == 0 || v%n >= n {
			return nil, fmt.Errorf("posting %d has no score", len(out))
		}
		doc += int64(v/n) + 1
		out = append(out, posting{int32(doc), table[v%n]})
		v, mul = 0, 1
	}
	if mul != 1 {
		return nil, fmt.Errorf("codes end inside a number")
	}
	return out, nil
}

// TestPostingsRoundTrip checks that postings written by appendPostings read
// back as they were, and that common postings cost one character.
func TestPostingsRoundTrip(t *testing.T) {
	many := make([]posting, 0, 3000)
	for d := int32(0); d < 3000; d += 1 + d%3 {
		many = append(many, posting{d, 10 + d%7})
	}
	for _, c := range []struct {
		name     string
		ps       []posting
		maxChars int // at most this many characters of codes; 0 for any
	}{
		{"one posting at document 0", []posting{{0, 12}}, 1},
		{"far documents", []posting{{5, 1}, {40000, 1}, {2000000, 3}}, 0},
		{"dense, few scores", many, len(many)},
		{"one score, consecutive documents", []posting{{0, 7}, {1, 7}, {2, 7}, {3, 7}}, 4},
	} {
		var st scoreTable
		b, _ := appendPostings(nil, c.ps, st)
		var raw [2]json.RawMessage
		if err := json.Unmarshal(b, &raw); err != nil {
			t.Fatalf("%s: %s is not JSON: %v", c.name, b, err)
		}
		var table []int32
		var codes string
		if json.Unmarshal(raw[0], &table) != nil || json.Unmarshal(raw[1], &codes) != nil {
			t.Fatalf("%s: %s is not [scores, codes]", c.name, b)
		}
		got, err := decodePostings(table, codes)
		if err != nil {
			t.Errorf("%s: %s: %v", c.name, b, err)
			continue
		}
		if !slices.Equal(got, c.ps) {
			t.Errorf("%s: read back %v, want %v", c.name, got, c.ps)
		}
		if c.maxChars > 0 && len(codes) > c.maxChars {
			t.Errorf("%s: %d characters for %d postings, want at most %d", c.name, len(codes), len(c.ps), c.maxChars)
		}
	}
}
