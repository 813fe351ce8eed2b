package e2e

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"incidentlib/internal/library"
	"incidentlib/internal/search"
	"incidentlib/internal/webtest"
)

// Byte budgets of the search page on a generated library of 1,000 cases
// served with gzip (issue 13). They are deterministic: the same library,
// index and queries give the same bytes on every machine, and typing key by
// key waits for the page, not for a clock (see webtest.MeasureSearch). The
// settled page is the page as it opens, every filter group folded; a
// group's counts cost its facet's file when it is opened.
const (
	budgetFirst   = 40 << 10 // first query, from opening the page
	budgetFurther = 30 << 10 // each further query
	keyByKeyRatio = 1.5      // typing key by key over typing at once
)

func TestSearchByteBudgets(t *testing.T) {
	out := generated(t)
	srv := httptest.NewServer(webtest.Gzip(webtest.Handler(out)))
	defer srv.Close()
	ctx, stop, err := webtest.StartBrowser(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	for _, c := range []struct{ lang, q, next string }{
		{"en", "load balancer", "expired certificate"},
		{"ko", "로드 밸런서가", "인증서 만료"},
		{"ko", "인증서", "로드 밸런서"},
	} {
		page := srv.URL + "/" + c.lang + "/search/"
		once, err := webtest.MeasureSearch(ctx, page, c.q, c.next, false)
		if err != nil {
			t.Fatal(err)
		}
		keys, err := webtest.MeasureSearch(ctx, page, c.q, c.next, true)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s %q: first %d B (key by key %d B), settled %d B, further %q %d B", c.lang, c.q, once.First, keys.First, once.Settled, c.next, once.Further)
		if once.First > budgetFirst {
			t.Errorf("%s %q: the first query costs %d bytes, over the budget of %d", c.lang, c.q, once.First, budgetFirst)
		}
		if once.Further > budgetFurther {
			t.Errorf("%s %q: the further query %q costs %d bytes, over the budget of %d", c.lang, c.q, c.next, once.Further, budgetFurther)
		}
		if float64(keys.First) > keyByKeyRatio*float64(once.First) {
			t.Errorf("%s %q: typed key by key it costs %d bytes, over %.1f× the %d of typing it at once", c.lang, c.q, keys.First, keyByKeyRatio, once.First)
		}
		if once.Settled >= 2*once.First {
			t.Errorf("%s %q: the settled page costs %d bytes, not under twice the first query's %d", c.lang, c.q, once.Settled, once.First)
		}
	}
	checkGroupCounts(t, ctx, srv.URL, genSrc)
}

// checkGroupCounts opens the search page with a query, checks that no
// facet file loads while the filter groups are folded, then opens each
// group and checks that it loads its own facet's file and shows the counts
// the Go engine gives for the same query over the same library.
func checkGroupCounts(t *testing.T, ctx context.Context, base, content string) {
	fsys, err := library.Content(content)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := library.New(ctx, fsys, library.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !lib.Ready() {
		t.Fatalf("load %s: %v", content, lib.Diags.Err())
	}
	docs, labels := search.Docs(lib.Lib), lib.Topics().SearchLabels()
	const q = "load balancer"
	want := search.NewEngine(docs, labels).Search(q, nil).Counts

	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	tab, cancelT := context.WithTimeout(tab, 2*time.Minute)
	defer cancelT()
	run := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(tab, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	strs := func(expr string) []string {
		t.Helper()
		v, err := chromedp.Run(tab, chromedp.Evaluate[[]string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	const facetFiles = `performance.getEntriesByType("resource").map(e => e.name).filter(n => n.includes("/search/f/")).map(n => n.replace(/^.*\/search\//, ""))`
	run("open the search page", chromedp.Navigate(base+"/en/search/?q="+url.QueryEscape(q)),
		chromedp.Poll[chromedp.Void](`((c) => c && c.last && c.last.hits.length >= Math.min(c.shown, c.last.total))(document.querySelector('form[data-search="page"]').__incidentSearch)`))
	if got := strs(facetFiles); len(got) > 0 {
		t.Errorf("with every filter group folded the page loaded %v", got)
	}
	facets := strs(`Array.from(document.querySelectorAll("[data-facet-toggle]")).map(b => b.getAttribute("data-facet-toggle"))`)
	if len(facets) < 5 {
		t.Fatalf("the page has filter groups %v", facets)
	}
	var loaded []string
	compared := 0
	for _, f := range facets {
		sel := `fieldset[data-facet="` + f + `"]`
		run("open "+f, chromedp.Click(chromedp.CSS(`[data-facet-toggle="`+f+`"]`)),
			chromedp.Poll[chromedp.Void](`!!document.querySelector('`+sel+` ul') && !document.querySelector('`+sel+`[aria-busy]')`))
		for len(strs(`Array.from(document.querySelectorAll('[data-facet-more="`+f+`"][aria-expanded="false"]')).map(b => b.textContent)`)) > 0 {
			run("show all of "+f, chromedp.Click(chromedp.CSS(`[data-facet-more="`+f+`"]`)))
		}
		shown := strs(`Array.from(document.querySelectorAll('` + sel + ` li')).map(li => li.querySelector("input").value + "=" + li.querySelector(".search-facet-count").textContent)`)
		var exact []string
		for id, n := range want[f] {
			exact = append(exact, fmt.Sprintf("%s=(%d)", id, n))
		}
		sort.Strings(shown)
		sort.Strings(exact)
		compared += len(exact)
		if strings.Join(shown, " ") != strings.Join(exact, " ") {
			t.Errorf("the open %s group shows %v, the Go engine counts %v", f, shown, exact)
		}
		loaded = append(loaded, "f/"+f+".json")
		if got := strs(facetFiles); strings.Join(got, " ") != strings.Join(loaded, " ") {
			t.Errorf("after opening %s the page has loaded %v, want %v", f, got, loaded)
		}
	}
	if compared < 20 {
		t.Errorf("only %d facet counts compared; %q should match cases of many terms", compared, q)
	}
}
