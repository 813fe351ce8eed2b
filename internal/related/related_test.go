package related

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// linkSummary is a compact, comparable view of a link for table tests.
func linkSummary(ls []Link) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = l.ID + ":" + l.Kind.String()
	}
	return out
}

func byID(items []Item, res [][]Link) map[string][]Link {
	m := make(map[string][]Link, len(items))
	for i, it := range items {
		m[it.ID] = res[i]
	}
	return m
}

func TestCompute(t *testing.T) {
	many := func(prefix string, n int, f func(i int) Item) []Item {
		var out []Item
		for i := range n {
			it := f(i)
			it.ID = fmt.Sprintf("%s%02d", prefix, i)
			out = append(out, it)
		}
		return out
	}
	tests := []struct {
		name  string
		items []Item
		opt   Options
		want  map[string][]string // ID → links as "ID:kind", in order
	}{
		{
			name: "explicit links come first and are mirrored",
			items: []Item{
				{ID: "A", Date: "2024-01-01", Components: []string{"x"}, Related: []string{"C"}},
				{ID: "B", Date: "2024-01-02", Components: []string{"x"}},
				{ID: "C", Date: "2020-01-01", Components: []string{"y"}},
			},
			want: map[string][]string{
				"A": {"C:explicit", "B:computed"},
				"B": {"A:computed"},
				"C": {"A:explicit"},
			},
		},
		{
			name: "recurrence is listed on both sides and outranks a related entry",
			items: []Item{
				{ID: "OLD", Date: "2019-05-01", RootCause: "bug"},
				{ID: "NEW", Date: "2023-05-01", RootCause: "other", RecurrenceOf: "OLD", Related: []string{"OLD", "R"}},
				{ID: "R", Date: "2021-01-01"},
			},
			want: map[string][]string{
				"OLD": {"NEW:recurred"},
				"NEW": {"OLD:recurrence_of", "R:explicit"},
				"R":   {"NEW:explicit"},
			},
		},
		{
			name: "references to unknown cases and to oneself are ignored",
			items: []Item{
				{ID: "A", Date: "2024-01-01", Related: []string{"A", "NOPE", ""}, RecurrenceOf: "A"},
				{ID: "B", Date: "2024-01-01", RecurrenceOf: "GONE"},
			},
			want: map[string][]string{"A": nil, "B": nil},
		},
		{
			name: "a rarer shared term outranks a commoner one",
			items: []Item{
				{ID: "A", Date: "2020-01-01", Components: []string{"common", "rare"}},
				{ID: "B", Date: "2024-01-01", Components: []string{"common"}},
				{ID: "C", Date: "2019-01-01", Components: []string{"rare"}},
				{ID: "D", Date: "2018-01-01", Components: []string{"common"}},
				{ID: "E", Date: "2018-01-01", Components: []string{"common"}},
			},
			opt: Options{Max: 2},
			want: map[string][]string{
				"A": {"C:computed", "B:computed"},
				"B": {"A:computed", "D:computed"},
				"C": {"A:computed"},
				"D": {"B:computed", "E:computed"},
				"E": {"D:computed"},
			},
		},
		{
			name: "ties go to the newer case, then the smaller ID",
			items: []Item{
				{ID: "A", Date: "2025-01-01", Components: []string{"x"}},
				{ID: "OLD", Date: "2019-01-01", Components: []string{"x"}},
				{ID: "N2", Date: "2022-01-01", Components: []string{"x"}},
				{ID: "N1", Date: "2022-01-01", Components: []string{"x"}},
				{ID: "Z", Date: "2010-01-01", Components: []string{"y"}},
			},
			want: map[string][]string{
				"A":   {"N1:computed", "N2:computed", "OLD:computed"},
				"N1":  {"A:computed", "N2:computed", "OLD:computed"},
				"N2":  {"A:computed", "N1:computed", "OLD:computed"},
				"OLD": {"A:computed", "N1:computed", "N2:computed"},
				"Z":   nil,
			},
		},
		{
			name: "an unknown root cause is not a shared reason",
			items: []Item{
				{ID: "A", Date: "2024-01-01", RootCause: "unknown"},
				{ID: "B", Date: "2024-01-01", RootCause: "unknown"},
				{ID: "C", Date: "2024-01-01", RootCause: ""},
				{ID: "D", Date: "2024-01-01", RootCause: ""},
			},
			want: map[string][]string{"A": nil, "B": nil, "C": nil, "D": nil},
		},
		{
			name: "the bound holds for a hub: it keeps its best three, the rest pair up among themselves",
			items: append(
				[]Item{
					{ID: "HUB", Date: "2025-01-01", Components: []string{"x", "y"}},
					{ID: "Z", Date: "2010-01-01", Components: []string{"z"}}, // keeps x from being in every case
				},
				many("L", 6, func(i int) Item {
					it := Item{Date: fmt.Sprintf("2020-01-%02d", i+1), Components: []string{"x"}}
					if i < 4 {
						it.Components = append(it.Components, "y")
					}
					return it
				})...),
			opt: Options{Max: 3},
			want: map[string][]string{
				// L00..L03 share x and y with the hub and with each other;
				// the three newest fill the hub. L00 loses that tie by date
				// and pairs with the cases that only share x.
				"HUB": {"L03:computed", "L02:computed", "L01:computed"},
				"L03": {"HUB:computed", "L02:computed", "L01:computed"},
				"L02": {"HUB:computed", "L03:computed", "L01:computed"},
				"L01": {"HUB:computed", "L03:computed", "L02:computed"},
				"L00": {"L05:computed", "L04:computed"},
				"L05": {"L04:computed", "L00:computed"},
				"L04": {"L05:computed", "L00:computed"},
			},
		},
		{
			name: "explicit links beyond Max are all kept and leave no room for computed ones",
			items: append(
				[]Item{{ID: "A", Date: "2025-01-01", Components: []string{"x"},
					Related: []string{"R00", "R01", "R02", "R03"}}},
				append(many("R", 4, func(int) Item { return Item{Date: "2020-01-01"} }),
					Item{ID: "S", Date: "2020-01-01", Components: []string{"x"}})...),
			opt: Options{Max: 3},
			want: map[string][]string{
				"A":   {"R00:explicit", "R01:explicit", "R02:explicit", "R03:explicit"},
				"R00": {"A:explicit"}, "R01": {"A:explicit"}, "R02": {"A:explicit"}, "R03": {"A:explicit"},
				"S": nil,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := Compute(tc.items, tc.opt)
			got := byID(tc.items, res)
			for id, want := range tc.want {
				if g := linkSummary(got[id]); !slices.Equal(g, want) && !(len(g) == 0 && len(want) == 0) {
					t.Errorf("%s: got %q, want %q", id, g, want)
				}
			}
			checkInvariants(t, tc.items, res, tc.opt)
		})
	}
}

func TestReason(t *testing.T) {
	items := []Item{
		{ID: "A", Date: "2024-01-01", RootCause: "bug", Components: []string{"cache", "db", "dns"},
			Contributing: []string{"no-alert"}, Symptoms: []string{"latency", "errors", "latency"}},
		{ID: "B", Date: "2023-01-01", RootCause: "bug", Components: []string{"dns", "db"},
			Symptoms: []string{"errors"}, Related: []string{"C"}},
		{ID: "C", Date: "2022-01-01", RootCause: "capacity", Components: []string{"cache"}},
	}
	res := byID(items, Compute(items, Options{}))
	want := map[string][]Link{
		"A": {
			// In A's own order: db before dns, as A lists them.
			{ID: "B", Kind: Computed, Reason: Reason{SameRootCause: true, Components: []string{"db", "dns"}, Symptoms: []string{"errors"}}},
			{ID: "C", Kind: Computed, Reason: Reason{Components: []string{"cache"}}},
		},
		"B": {
			{ID: "C", Kind: Explicit},
			{ID: "A", Kind: Computed, Reason: Reason{SameRootCause: true, Components: []string{"dns", "db"}, Symptoms: []string{"errors"}}},
		},
	}
	for id, ws := range want {
		got := res[id]
		if len(got) != len(ws) {
			t.Fatalf("%s: got %d links %q, want %d", id, len(got), linkSummary(got), len(ws))
		}
		for i, w := range ws {
			g := got[i]
			if g.ID != w.ID || g.Kind != w.Kind || !g.Reason.equal(w.Reason) {
				t.Errorf("%s[%d]: got %+v, want %+v", id, i, g, w)
			}
		}
	}
	if s := res["B"][0].Score; s != 0 {
		t.Errorf("explicit link between cases sharing nothing has score %v, want 0", s)
	}
}

// TestRandom checks the invariants on many small random libraries, with
// options small enough that common terms, windows and full lists all occur.
func TestRandom(t *testing.T) {
	opts := []Options{{}, {Max: 1}, {Max: 3, CommonDF: 2, Window: 1}, {Max: 2, CommonDF: 4, Window: 2}}
	for seed := range uint64(200) {
		items := randomItems(rand.New(rand.NewPCG(seed, 1)), 1+int(seed%40))
		for _, opt := range opts {
			res := Compute(items, opt)
			if !checkInvariants(t, items, res, opt) {
				t.Fatalf("seed %d, options %+v", seed, opt)
			}
		}
	}
}

// TestExhaustive compares, on libraries small enough that every pair is a
// candidate, the scores with a direct evaluation of the formula and checks
// that the matching is maximal: no two cases that share something both have
// a free place and are left unlinked.
func TestExhaustive(t *testing.T) {
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 2))
		opt := Options{Max: 1 + int(seed%6)}
		n := 2 + r.IntN(3*opt.Max) // at most 3 × Max candidates per case
		items := randomItems(r, n)
		res := Compute(items, opt)
		checkInvariants(t, items, res, opt)

		linked := make(map[[2]int]bool)
		idx := indexOf(items)
		for i, ls := range res {
			for _, l := range ls {
				linked[[2]int{i, idx[l.ID]}] = true
				if want := naiveScore(items, i, idx[l.ID]); math.Abs(l.Score-want) > 1e-5 {
					t.Errorf("seed %d: %s→%s score %v, want %v", seed, items[i].ID, l.ID, l.Score, want)
				}
			}
		}
		for i := range items {
			for j := i + 1; j < n; j++ {
				if linked[[2]int{i, j}] || naiveScore(items, i, j) <= 1e-9 {
					continue
				}
				if len(res[i]) < opt.Max && len(res[j]) < opt.Max {
					t.Errorf("seed %d: %s and %s share terms and both have room, but are not linked", seed, items[i].ID, items[j].ID)
				}
			}
		}
	}
}

// TestInputOrder checks that shuffling the input changes nothing but the
// alignment of the result.
func TestInputOrder(t *testing.T) {
	for seed := range uint64(50) {
		r := rand.New(rand.NewPCG(seed, 3))
		items := randomItems(r, 30)
		opt := Options{Max: 3, CommonDF: 5, Window: 2}
		want := byID(items, Compute(items, opt))
		shuffled := slices.Clone(items)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		got := byID(shuffled, Compute(shuffled, opt))
		for id, w := range want {
			if g := got[id]; !sameLinks(g, w) {
				t.Fatalf("seed %d, %s: order-dependent result\n got %+v\nwant %+v", seed, id, g, w)
			}
		}
	}
}

func TestSynthetic(t *testing.T) {
	for _, n := range []int{1_000, 100_000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			if n > 1_000 && testing.Short() {
				t.Skip("-short: a library of 100,000 cases")
			}
			items := synthLibrary(n, 42)
			start := time.Now()
			res := Compute(items, Options{})
			elapsed := time.Since(start)
			if !checkInvariants(t, items, res, Options{}) {
				return
			}
			var links, computed, empty int
			for _, ls := range res {
				links += len(ls)
				if len(ls) == 0 {
					empty++
				}
				for _, l := range ls {
					if l.Kind == Computed {
						computed++
					}
				}
			}
			t.Logf("%d cases: %v, %.2f links a case (%d computed), %d cases without any", n, elapsed, float64(links)/float64(n), computed, empty)
			// The generator gives every case at least one component, so
			// almost every case must find someone.
			if empty > n/100 {
				t.Errorf("%d of %d cases have no related case", empty, n)
			}
			// Workers split the cases between them; the result must not
			// depend on how they were scheduled. One large rerun would
			// double the test's time, so the small library checks it.
			if n <= 10_000 {
				if again := Compute(items, Options{}); !slices.EqualFunc(res, again, sameLinks) {
					t.Error("two runs on the same input differ")
				}
			}
		})
	}
}

func BenchmarkCompute(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		items := synthLibrary(n, 42)
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Compute(items, Options{})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/case")
		})
	}
}

// checkInvariants verifies what every result must satisfy and reports
// whether it did: aligned with the input, no self or duplicate links, every
// explicit reference present on both sides, the bound, the order, symmetry
// (same kind pair, score and shared terms on both sides) and reasons that
// are exactly the shared terms.
func checkInvariants(t *testing.T, items []Item, res [][]Link, opt Options) bool {
	t.Helper()
	opt = opt.withDefaults()
	errs := 0
	fail := func(format string, args ...any) {
		if errs < 10 {
			t.Errorf(format, args...)
		}
		errs++
	}
	if len(res) != len(items) {
		t.Errorf("got %d lists for %d items", len(res), len(items))
		return false
	}
	idx := indexOf(items)
	terms := make([][numFacets][]string, len(items))
	for i, it := range items {
		terms[i] = facets(it)
	}
	find := func(ls []Link, id string) *Link {
		for k := range ls {
			if ls[k].ID == id {
				return &ls[k]
			}
		}
		return nil
	}
	mirror := map[Kind]Kind{RecurrenceOf: Recurred, Recurred: RecurrenceOf, Explicit: Explicit, Computed: Computed}
	for i, ls := range res {
		a := items[i]
		seen := map[string]bool{}
		explicit := 0
		for k, l := range ls {
			j, ok := idx[l.ID]
			switch {
			case !ok:
				fail("%s links to unknown %q", a.ID, l.ID)
				continue
			case j == i:
				fail("%s links to itself", a.ID)
			case seen[l.ID]:
				fail("%s lists %s twice", a.ID, l.ID)
			}
			seen[l.ID] = true
			if l.Kind != Computed {
				explicit++
			}
			if k > 0 && !inOrder(items, idx, ls[k-1], l) {
				fail("%s: %s listed before %s", a.ID, ls[k-1].ID, l.ID)
			}
			if want := sharedTerms(terms[i], terms[j]); !l.Reason.equal(want) {
				fail("%s→%s: reason %+v, want %+v", a.ID, l.ID, l.Reason, want)
			}
			if l.Kind == Computed && l.Score <= 0 {
				fail("%s→%s computed with score %v", a.ID, l.ID, l.Score)
			}
			back := find(res[j], a.ID)
			switch {
			case back == nil:
				fail("%s lists %s but not the other way round", a.ID, l.ID)
			case back.Kind != mirror[l.Kind] && !(l.Kind == RecurrenceOf && back.Kind == RecurrenceOf):
				fail("%s→%s is %v but %s→%s is %v", a.ID, l.ID, l.Kind, l.ID, a.ID, back.Kind)
			case back.Score != l.Score:
				fail("%s→%s scores %v, back %v", a.ID, l.ID, l.Score, back.Score)
			case !sameSet(back.Components, l.Components) || !sameSet(back.Contributing, l.Contributing) || !sameSet(back.Symptoms, l.Symptoms):
				fail("%s↔%s: reasons differ: %+v vs %+v", a.ID, l.ID, l.Reason, back.Reason)
			}
		}
		if limit := max(opt.Max, explicit); len(ls) > limit {
			fail("%s has %d links (%d explicit), bound %d", a.ID, len(ls), explicit, limit)
		}
		refs := slices.Clone(a.Related)
		if a.RecurrenceOf != "" {
			refs = append(refs, a.RecurrenceOf)
		}
		for _, id := range refs {
			if j, ok := idx[id]; ok && j != i {
				if l := find(ls, id); l == nil || l.Kind == Computed {
					fail("%s names %s but does not list it as explicit", a.ID, id)
				}
			}
		}
	}
	return errs == 0
}

// inOrder reports whether x may be listed before y: by kind, then score,
// then newer date, then ID.
func inOrder(items []Item, idx map[string]int, x, y Link) bool {
	if x.Kind != y.Kind {
		return x.Kind < y.Kind
	}
	if x.Score != y.Score {
		return x.Score > y.Score
	}
	dx, dy := items[idx[x.ID]].Date, items[idx[y.ID]].Date
	if dx != dy {
		return dx > dy
	}
	return x.ID < y.ID
}

func indexOf(items []Item) map[string]int {
	m := make(map[string]int, len(items))
	for i, it := range items {
		m[it.ID] = i
	}
	return m
}

// facets returns an item's usable terms per facet, in its own order,
// without repeats, "" or "unknown".
func facets(it Item) [numFacets][]string {
	var f [numFacets][]string
	for k, list := range [numFacets][]string{{it.RootCause}, it.Components, it.Contributing, it.Symptoms, it.Words} {
		for _, s := range list {
			if s != "" && s != "unknown" && !slices.Contains(f[k], s) {
				f[k] = append(f[k], s)
			}
		}
	}
	// The root cause in each component and each domain, terms of their own.
	for _, root := range f[facetRoot] {
		for _, c := range f[facetComponents] {
			f[facetCause] = append(f[facetCause], root+" in component "+c)
		}
		for _, d := range it.Domains {
			if d != "" && d != "unknown" && !slices.Contains(f[facetCause], root+" in domain "+d) {
				f[facetCause] = append(f[facetCause], root+" in domain "+d)
			}
		}
	}
	return f
}

// sharedTerms is the reason two cases are related, from their facets.
func sharedTerms(fa, fb [numFacets][]string) Reason {
	var shared [numFacets][]string
	for k := range fa {
		for _, s := range fa[k] {
			if slices.Contains(fb[k], s) {
				shared[k] = append(shared[k], s)
			}
		}
	}
	return Reason{SameRootCause: len(shared[facetRoot]) > 0, Components: shared[facetComponents],
		Contributing: shared[facetContributing], Symptoms: shared[facetSymptoms]}
}

// naiveScore evaluates the scoring formula directly, in floating point.
func naiveScore(items []Item, i, j int) float64 {
	df := map[[2]string]int{}
	for _, it := range items {
		for k, list := range facets(it) {
			for _, s := range list {
				df[[2]string{fmt.Sprint(k), s}]++
			}
		}
	}
	fa, fb := facets(items[i]), facets(items[j])
	var s, words float64
	for k := range fa {
		for _, term := range fa[k] {
			if slices.Contains(fb[k], term) {
				w := facetWeight[k] * math.Log(float64(len(items))/float64(df[[2]string{fmt.Sprint(k), term}]))
				if k == facetWords {
					words += w
				} else {
					s += w
				}
			}
		}
	}
	// The words count up to the weight of a component only two cases have.
	return s + min(words, facetWeight[facetComponents]*max(0, math.Log(float64(len(items))/2)))
}

func sameSet(a, b []string) bool {
	return len(a) == len(b) && !slices.ContainsFunc(a, func(s string) bool { return !slices.Contains(b, s) })
}

func sameLinks(a, b []Link) bool {
	return slices.EqualFunc(a, b, func(x, y Link) bool {
		return x.ID == y.ID && x.Kind == y.Kind && x.Score == y.Score && x.Reason.equal(y.Reason)
	})
}

// randomItems makes a small library over a tiny vocabulary, so that terms
// are shared often, with some explicit links, recurrences, unknown causes,
// repeated terms, bad references and equal dates.
func randomItems(r *rand.Rand, n int) []Item {
	pick := func(prefix string, vocab, most int) []string {
		var out []string
		for range r.IntN(most + 1) {
			out = append(out, fmt.Sprintf("%s%d", prefix, r.IntN(vocab)))
		}
		return out
	}
	items := make([]Item, n)
	for i := range items {
		it := &items[i]
		it.ID = fmt.Sprintf("IL-%03d", i)
		it.Date = fmt.Sprintf("20%02d-%02d-01", 18+r.IntN(4), 1+r.IntN(3))
		if c := pick("cause", 4, 1); len(c) > 0 {
			it.RootCause = c[0]
		} else if r.IntN(2) == 0 {
			it.RootCause = "unknown"
		}
		it.Components = pick("comp", 8, 3)
		it.Contributing = pick("contrib", 5, 2)
		it.Symptoms = pick("symp", 5, 3)
		it.Words = pick("word", 6, 4)
		it.Domains = pick("comp", 3, 2) // the ids of components, to show the two apart
		if r.IntN(6) == 0 {
			it.Related = append(it.Related, fmt.Sprintf("IL-%03d", r.IntN(n+2)))
		}
		if r.IntN(8) == 0 {
			it.RecurrenceOf = fmt.Sprintf("IL-%03d", r.IntN(n+1))
		}
	}
	return items
}

// synthLibrary makes a library of n cases whose terms follow Zipf-like
// distributions, the way a real library has a few very common symptoms and
// root causes and a long tail of rare components. Vocabulary sizes are fixed,
// so the larger libraries have many terms above CommonDF and the smaller ones
// almost none, which exercises both paths.
func synthLibrary(n int, seed uint64) []Item {
	r := rand.New(rand.NewPCG(seed, 7))
	type facet struct {
		names []string
		zipf  *rand.Zipf
		most  int
	}
	mk := func(prefix string, size int, s float64, most int) facet {
		f := facet{zipf: rand.NewZipf(r, s, 2, uint64(size-1)), most: most}
		for k := range size {
			f.names = append(f.names, fmt.Sprintf("%s-%d", prefix, k))
		}
		return f
	}
	roots := mk("cause", 30, 1.6, 1)
	comps := mk("comp", 3000, 1.2, 4)
	contrib := mk("contrib", 300, 1.3, 3)
	symp := mk("symp", 400, 1.4, 4)
	draw := func(f facet, least int) []string {
		k := least + r.IntN(f.most-least+1)
		out := make([]string, 0, k)
		for range k {
			out = append(out, f.names[f.zipf.Uint64()])
		}
		return out
	}
	day0 := time.Date(2012, 1, 1, 0, 0, 0, 0, time.UTC)
	items := make([]Item, n)
	for i := range items {
		it := &items[i]
		it.ID = fmt.Sprintf("IL-%06d", i)
		it.Date = day0.AddDate(0, 0, r.IntN(15*365)).Format(time.DateOnly)
		if r.IntN(30) == 0 {
			it.RootCause = "unknown"
		} else {
			it.RootCause = draw(roots, 1)[0]
		}
		it.Components = draw(comps, 1)
		it.Contributing = draw(contrib, 0)
		it.Symptoms = draw(symp, 1)
		if i > 0 && r.IntN(50) == 0 {
			it.Related = []string{items[r.IntN(i)].ID}
		}
		if i > 0 && r.IntN(100) == 0 {
			it.RecurrenceOf = items[r.IntN(i)].ID
		}
	}
	return items
}

// TestCandidateOrder checks the list of candidates a case brings to the
// matching: when more cases tie than it keeps, it keeps the newest, in order.
// Compute's result alone rarely shows this, because the other side of each
// pair may propose it too.
func TestCandidateOrder(t *testing.T) {
	var items []Item
	for i := range 8 {
		items = append(items, Item{ID: fmt.Sprintf("C%d", i), Date: fmt.Sprintf("2020-01-%02d", 10-i), Components: []string{"x"}})
	}
	items = append(items, Item{ID: "Z", Date: "2000-01-01", Components: []string{"z"}})
	opt := Options{Max: 1}.withDefaults()
	ix := buildIndex(items, opt)
	top := ix.candidates(ix.explicit(items), opt)
	for a := range int32(8) {
		var got []string
		for j := range top.count[a] {
			got = append(got, ix.ids[top.to[int(a)*top.l+int(j)]])
		}
		// Everyone but a among C0..C7, newest (lowest number) first.
		var want []string
		for i := range 8 {
			if i != int(a) && len(want) < top.l {
				want = append(want, fmt.Sprintf("C%d", i))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s keeps %q, want %q", ix.ids[a], got, want)
		}
	}
}

// TestCommonTermWindow checks that a term above CommonDF proposes exactly
// the Window nearest cases by date on each side, and that cases whose only
// shared term is common still get related cases.
func TestCommonTermWindow(t *testing.T) {
	var items []Item
	for i := range 8 {
		items = append(items, Item{ID: fmt.Sprintf("C%d", i), Date: fmt.Sprintf("2020-01-%02d", 10-i), Components: []string{"x"}})
	}
	items = append(items, Item{ID: "Z", Date: "2000-01-01", Components: []string{"z"}})
	opt := Options{Max: 2, CommonDF: 3, Window: 1}.withDefaults()
	ix := buildIndex(items, opt)
	top := ix.candidates(ix.explicit(items), opt)
	for a := range int32(8) {
		var got []string
		for j := range top.count[a] {
			got = append(got, ix.ids[top.to[int(a)*top.l+int(j)]])
		}
		var want []string
		for _, b := range []int32{a - 1, a + 1} {
			if b >= 0 && b < 8 {
				want = append(want, ix.ids[b])
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s proposes %q, want its date neighbours %q", ix.ids[a], got, want)
		}
	}
	res := Compute(items, opt)
	checkInvariants(t, items, res, opt)
	for i, ls := range res[:8] {
		if len(ls) == 0 {
			t.Errorf("%s shares a common term with seven cases but has no related case", items[i].ID)
		}
	}
}

// TestCandidatesBruteForce compares each case's candidate list with every
// other case scored pair by pair, on libraries where the window is wide
// enough that common terms propose every case carrying them. It covers the
// running sums over rare terms, the looked-up weights of common terms and
// the early cut-off once a list is full.
func TestCandidatesBruteForce(t *testing.T) {
	for seed := range uint64(150) {
		r := rand.New(rand.NewPCG(seed, 4))
		items := randomItems(r, 10+r.IntN(50))
		opt := Options{Max: 1 + r.IntN(3), CommonDF: 1 + r.IntN(6), Window: 100}.withDefaults()
		ix := buildIndex(items, opt)
		exp := ix.explicit(items)
		top := ix.candidates(exp, opt)
		for a := range int32(ix.n) {
			type cand struct {
				b int32
				s int64
			}
			var all []cand
			for b := range int32(ix.n) {
				linked := slices.ContainsFunc(exp.of(a), func(e edgeTo) bool { return e.to == b })
				if s := ix.pairScore(a, b); b != a && !linked && s > 0 {
					all = append(all, cand{b, s})
				}
			}
			slices.SortFunc(all, func(x, y cand) int {
				if x.s != y.s {
					return cmp.Compare(y.s, x.s)
				}
				return cmp.Compare(x.b, y.b)
			})
			all = all[:min(len(all), top.l)]
			got := make([]cand, top.count[a])
			for j := range got {
				k := int(a)*top.l + j
				got[j] = cand{top.to[k], top.score[k]}
			}
			if !slices.Equal(got, all) {
				t.Fatalf("seed %d, %s: candidates %v, want %v", seed, ix.ids[a], got, all)
			}
		}
	}
}

// TestWordsCap: however many narrative words two cases share, they add no
// more than a component only those two cases have; and the root cause in a
// component or a domain counts as a term of its own, which no reason
// names, while a domain alone is none.
func TestWordsCap(t *testing.T) {
	var words []string
	for i := range 10 {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	items := []Item{
		{ID: "A", Date: "2024-01-01", RootCause: "bug", Components: []string{"x", "y"}, Domains: []string{"aws"}, Words: words},
		{ID: "B", Date: "2023-01-01", Words: words},
		{ID: "C", Date: "2022-01-01", Components: []string{"x"}},
		{ID: "D", Date: "2021-01-01", RootCause: "bug", Components: []string{"y"}},
		{ID: "E", Date: "2020-01-01", RootCause: "bug", Domains: []string{"aws"}},
		{ID: "F", Date: "2020-01-01", Components: []string{"y"}, Domains: []string{"aws"}},
		{ID: "G", Date: "2019-01-01", Domains: []string{"aws"}},
	}
	res := byID(items, Compute(items, Options{}))
	score := func(a, b string) float64 {
		for _, l := range res[a] {
			if l.ID == b {
				return l.Score
			}
		}
		t.Fatalf("%s does not list %s: %q", a, b, linkSummary(res[a]))
		return 0
	}
	n := float64(len(items))
	if got, want := score("A", "B"), math.Log(n/2); math.Abs(got-want) > 1e-5 {
		t.Errorf("A→B shares ten words: score %v, want the cap %v", got, want)
	}
	if got, want := score("A", "C"), math.Log(n/2); math.Abs(got-want) > 1e-5 {
		t.Errorf("A→C shares a component of two cases: score %v, want %v", got, want)
	}
	// bug (3 cases), y (3 cases), and bug in y (2 cases) at half weight.
	if got, want := score("A", "D"), 2*math.Log(n/3)+0.5*math.Log(n/2); math.Abs(got-want) > 1e-5 {
		t.Errorf("A→D: score %v, want %v", got, want)
	}
	// bug, and bug on aws (2 cases) at half weight.
	if got, want := score("A", "E"), math.Log(n/3)+0.5*math.Log(n/2); math.Abs(got-want) > 1e-5 {
		t.Errorf("A→E: score %v, want %v", got, want)
	}
	// A domain alone is no shared term.
	if len(res["G"]) != 0 {
		t.Errorf("G shares only a domain, yet lists %q", linkSummary(res["G"]))
	}
	for _, l := range res["A"] {
		for _, c := range l.Components {
			if strings.Contains(c, "\x00") {
				t.Errorf("A→%s names the root cause in a component: %q", l.ID, l.Components)
			}
		}
	}
	if got := linkSummary(res["A"]); got[0] != "D:computed" {
		t.Errorf("A lists %q, want D, which shares the root cause in a component, first", got)
	}
}
