package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"incidentlib/internal/cases"
	"incidentlib/internal/webtest"
)

// demoPage follows the DOM contract at the top of static/js/search.js: a
// header box and the search page form, both pointing at the index with
// relative paths.
const demoPage = `<!doctype html>
<html lang="LANG"><head><meta charset="utf-8"><title>search</title></head><body>
<header><form class="search" role="search" data-search="box" data-search-root="../../search/" data-lang="LANG" action="./">
<input type="search" name="q" id="box" autocomplete="off"></form></header>
<main><form class="search" role="search" data-search="page" data-search-root="../../search/" data-lang="LANG" action="./">
<input type="search" name="q" id="q" autocomplete="off">
<p data-search-status aria-live="polite"></p><div data-search-facets></div><ol data-search-results></ol></form></main>
<script src="../../js/search.js"></script>
</body></html>`

// TestBrowser drives the search page and the header box in headless
// Chromium, from file:// and over HTTP. It needs a Chromium on the machine
// and is skipped with -short; without one it is skipped, or fails under
// CI=true and in make test (webtest.Missing).
func TestBrowser(t *testing.T) {
	webtest.Heavy(t, "starts Chromium")
	chrome := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless_shell"} {
		if p, err := exec.LookPath(name); err == nil {
			chrome = p
			break
		}
	}
	if chrome == "" {
		webtest.Missing(t, "Chromium", errors.New("no chromium, chromium-browser, google-chrome or headless_shell on PATH"))
	}
	docs, labels := readFixture(t)
	dir := indexDir(t, docs, labels, goldenConfig)
	for _, lang := range []string{"en", "ko"} {
		writeFile(t, filepath.Join(dir, lang, "search", "index.html"), []byte(strings.ReplaceAll(demoPage, "LANG", lang)))
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chrome), chromedp.NoSandbox)
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	bctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(bctx); err != nil {
		webtest.Missing(t, chrome, err)
	}

	for _, base := range []struct{ name, url string }{
		{"http", srv.URL + "/"},
		{"file", "file://" + filepath.ToSlash(dir) + "/"},
	} {
		t.Run(base.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(bctx, 60*time.Second)
			defer cancel()
			ctx, cancel = chromedp.NewContext(ctx)
			defer cancel()
			offline := base.name == "file"
			do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
				t.Helper()
				if err := chromedp.Do(ctx, steps...); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
			}
			strs := func(expr string) []string {
				t.Helper()
				v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](expr))
				if err != nil {
					t.Fatalf("%s: %v", expr, err)
				}
				return v
			}
			str := func(expr string) string {
				t.Helper()
				v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
				if err != nil {
					t.Fatalf("%s: %v", expr, err)
				}
				return v
			}
			const resultIDs = `Array.from(document.querySelectorAll("[data-search-results] .search-result-id")).map(e => e.textContent)`
			css := func(sel string) chromedp.CSS { return chromedp.CSS(sel) }

			// A shared URL with a Korean query with a particle restores its results.
			do("korean query", chromedp.Navigate(base.url+"ko/search/index.html?q="+url.QueryEscape("로드 밸런서가")),
				chromedp.WaitVisible(css(`[data-search-results] li`)))
			ids, status := strs(resultIDs), str(`document.querySelector("[data-search-status]").textContent`)
			// The count as Korean writes it: "“로드 밸런서가” 검색 결과 3건".
			if !contains(ids, "IL-0495") || !strings.Contains(status, fmt.Sprintf("검색 결과 %d건", len(ids))) {
				t.Errorf("로드 밸런서가: results %v, status %q", ids, status)
			}
			for _, h := range strs(`Array.from(document.querySelectorAll("[data-search-results] a")).map(a => a.getAttribute("href"))`) {
				if !strings.HasPrefix(h, "../../ko/cases/") || strings.HasSuffix(h, "index.html") != offline {
					t.Errorf("result link %q (offline %v)", h, offline)
				}
			}

			// Filters in the URL restore; the facet groups are folded and
			// load nothing until one is opened; the marks are there.
			do("filtered", chromedp.Navigate(base.url+"en/search/index.html?q=load+balancer&domains=gcp"),
				chromedp.WaitVisible(css(`[data-search-results] li`)),
				chromedp.WaitVisible(css(`[data-facet-toggle="components"]`)))
			ids = strs(resultIDs)
			marks := str(`Array.from(document.querySelectorAll("[data-search-results] mark")).map(m => m.textContent).join("|")`)
			if len(ids) != 2 || contains(ids, "IL-0495") || !strings.Contains(strings.ToLower(marks), "load") {
				t.Errorf("filtered: results %v, marks %q", ids, marks)
			}
			const facetFiles = `performance.getEntriesByType("resource").map(e => e.name).filter(n => n.includes("/search/f/")).map(n => n.replace(/^.*\/search\//, "").replace(/\.(json|js)$/, "")).sort()`
			// Pages opened from file:// load the index by <script>, which
			// Resource Timing does not list.
			if got := strings.Join(strs(facetFiles), " "); !offline && got != "f/domains" {
				t.Errorf("filtered on a domain, before a group is opened the page loaded facet files %q, want only f/domains", got)
			}
			if got := strs(`Array.from(document.querySelectorAll("[data-facet-toggle]")).map(b => b.textContent + " " + b.getAttribute("aria-expanded"))`); !contains(got, "Domain (1 selected) false") || !contains(got, "Component false") {
				t.Errorf("folded groups: %q", got)
			}
			// Opening a group fetches its facet and shows the counts the Go
			// engine gives for the same query, and keeps the focus.
			engine := NewEngine(docs, labels)
			wantCounts := engine.Search("load balancer", Filter{"domains": {"gcp"}}).Counts
			for _, f := range []string{"components", "domains"} {
				do("open "+f, chromedp.Focus(css(`[data-facet-toggle="`+f+`"]`)), chromedp.KeyEvent(kb.Enter),
					chromedp.WaitVisible(css(`fieldset[data-facet="`+f+`"] input`)))
				if a := str(`document.activeElement.getAttribute("data-facet-toggle") + " " + document.activeElement.getAttribute("aria-expanded")`); a != f+" true" {
					t.Errorf("after opening %s the focus is on %q", f, a)
				}
				for str(`String(!!document.querySelector('[data-facet-more="`+f+`"][aria-expanded="false"]'))`) == "true" {
					do("show all "+f, chromedp.Click(css(`[data-facet-more="`+f+`"]`)))
				}
				shown := strs(`Array.from(document.querySelectorAll('fieldset[data-facet="` + f + `"] li')).map(li => li.querySelector("input").value + "=" + li.querySelector(".search-facet-count").textContent)`)
				var want []string
				for id, n := range wantCounts[f] {
					want = append(want, fmt.Sprintf("%s=(%d)", id, n))
				}
				if !sameSet(shown, want) {
					t.Errorf("open group %s shows %q, the Go engine counts %q", f, shown, want)
				}
			}
			if !offline {
				if got := strings.Join(strs(facetFiles), " "); got != "f/components f/domains" {
					t.Errorf("after opening components and domains the page loaded facet files %q", got)
				}
			}
			if scope := str(`document.querySelector('fieldset[data-facet="components"] .search-facet-scope').textContent`); scope != "Numbers are cases in these results." {
				t.Errorf("components group says %q", scope)
			}
			if checked := str(`String(document.querySelector('[data-search-facets] input[name="domains"][value="gcp"]').checked)`); checked != "true" {
				t.Errorf("the gcp filter from the URL is not ticked")
			}

			// Ticking a facet narrows the results and writes the URL.
			do("tick", chromedp.Click(css(`[data-search-facets] input[name="components"][value="ingress"]`)),
				chromedp.Poll[chromedp.Void](`location.search.includes("components=ingress") && document.querySelectorAll("[data-search-results] li").length === 1`))
			if ids := strs(resultIDs); strings.Join(ids, " ") != "IL-0054" {
				t.Errorf("after ticking ingress: %v (url %s)", ids, str(`location.search`))
			}
			// IL-0054 is dated by the post that told it, and its result says so.
			if meta := str(`document.querySelector("[data-search-results] .search-result-meta").textContent`); !strings.HasSuffix(meta, "Published 2 May 2019") {
				t.Errorf("IL-0054's date is the post's: result meta %q", meta)
			}

			// Typing: no results with a suggestion, then the keyboard.
			do("typo", chromedp.Navigate(base.url+"en/search/index.html"), chromedp.WaitVisible(css(`#q`)),
				chromedp.SendKeys(css(`#q`), "honeycomp"), chromedp.WaitVisible(css(`[data-search-status] button`)))
			if s := str(`document.querySelector("[data-search-status] button").textContent`); s != "honeycomb" {
				t.Errorf("suggestion %q, want honeycomb", s)
			}
			do("keys", chromedp.Click(css(`[data-search-status] button`)), chromedp.WaitVisible(css(`[data-search-results] li`)),
				chromedp.Focus(css(`#q`)), chromedp.KeyEvent(kb.ArrowDown))
			active := str(`document.activeElement.closest(".search-result") ? document.activeElement.querySelector(".search-result-id").textContent : document.activeElement.id`)
			if active != "IL-0202" {
				t.Errorf("ArrowDown focused %q, want the first result IL-0202", active)
			}
			do("escape", chromedp.KeyEvent(kb.Escape))
			if a := str(`document.activeElement.id`); a != "q" {
				t.Errorf("Escape focused %q, want the input", a)
			}

			// One letter is a prompt, not "no case matches"; a long query is
			// cut with a note; moving into the results is announced.
			do("one letter", chromedp.Navigate(base.url+"en/search/index.html"), chromedp.WaitVisible(css(`#q`)),
				chromedp.SendKeys(css(`#q`), "k"),
				chromedp.Poll[chromedp.Void](`document.querySelector("[data-search-status]").textContent.startsWith("Keep typing")`))
			long := "kubernetes traefik ingress pod node pool drain google cloud proxy requests reset connections certificate expired gateway stopped honeycomb database writes queries cache"
			do("long query", chromedp.Navigate(base.url+"en/search/index.html?q="+url.QueryEscape(long)),
				chromedp.WaitVisible(css(`.search-truncated`)))
			do("announce", chromedp.Navigate(base.url+"en/search/index.html?q=kubernetes"), chromedp.WaitVisible(css(`[data-search-results] li`)),
				chromedp.Focus(css(`#q`)), chromedp.KeyEvent(kb.ArrowDown),
				chromedp.Poll[chromedp.Void](`document.querySelector("#q ~ span[aria-live]").textContent.startsWith("In the results")`))
			if d := str(`document.querySelector("#q").getAttribute("aria-describedby")`); str(`document.getElementById(`+strconvQuote(d)+`)?.textContent ?? ""`) == "" {
				t.Errorf("the search box describes no key hint (aria-describedby %q)", d)
			}
			if !offline {
				// Each search is a history entry: Back returns to the query
				// before.
				do("history", chromedp.Navigate(base.url+"en/search/index.html?q=kubernetes"), chromedp.WaitVisible(css(`[data-search-results] li`)),
					chromedp.SetValue(css(`#q`), "honeycomb"), chromedp.SendKeys(css(`#q`), kb.Enter),
					chromedp.Poll[chromedp.Void](`location.search === "?q=honeycomb" && document.querySelectorAll("[data-search-results] li").length === 1`),
					chromedp.NavigateBack(),
					chromedp.Poll[chromedp.Void](`location.search === "?q=kubernetes" && document.querySelector("#q").value === "kubernetes" && document.querySelectorAll("[data-search-results] li").length > 1`))
			}

			// On a phone the results come first and the filter groups are
			// folded.
			do("phone", chromedp.EmulateViewport(375, 800), chromedp.Navigate(base.url+"en/search/index.html?q=kubernetes"),
				chromedp.WaitVisible(css(`[data-search-results] li`)), chromedp.WaitReady(css(`[data-facet-toggle]`)))
			if order := str(`(() => { const r = document.querySelector("[data-search-results]"), f = document.querySelector("[data-search-facets]"); return r.compareDocumentPosition(f) & Node.DOCUMENT_POSITION_FOLLOWING ? "results first" : "filters first"; })()`); order != "results first" {
				t.Errorf("on a phone: %s", order)
			}
			if open := str(`String(Array.from(document.querySelectorAll("[data-facet-toggle]")).filter(b => b.getAttribute("aria-expanded") !== "false").length + document.querySelectorAll("[data-search-facets] input:not([hidden])").length)`); open != "0" {
				t.Errorf("on a phone, %s filter groups or terms show", open)
			}
			do("desktop", chromedp.EmulateViewport(1200, 800))

			// The header box lists results as the user types.
			do("box", chromedp.SendKeys(css(`#box`), "kubernetes"), chromedp.WaitVisible(css(`.search-suggest li`)))
			box := strs(`Array.from(document.querySelectorAll(".search-suggest li")).map(e => e.textContent)`)
			if len(box) < 2 || !strings.Contains(strings.Join(box, "\n"), "IL-0202") || !strings.Contains(box[len(box)-1], "All results") {
				t.Errorf("header box shows %q", box)
			}
		})
	}
}

// indexDir returns a new folder holding the index of docs under search/
// and the browser engine as js/search.js, with the catalogue's words
// written in as a build writes them.
func indexDir(t *testing.T, docs []Doc, labels Labels, cfg config) string {
	t.Helper()
	dir := t.TempDir()
	for p, data := range buildMap(t, docs, labels, cfg) {
		writeFile(t, filepath.Join(dir, p), data)
	}
	js, err := os.ReadFile(filepath.Join("..", "..", "static", "js", "search.js"))
	if err == nil {
		js, err = cases.Catalogue.IntoScript(js)
	}
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "js", "search.js"), js)
	return dir
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func writeFile(t *testing.T, p string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserPrecision runs the precision and recall cases through the
// browser engine in Chromium: one index holds every case's document (case
// k is IL-k), and each query must find its case or not, as the Go engine
// does in TestPrecisionAndRecall. It also checks what the page highlights.
func TestBrowserPrecision(t *testing.T) {
	webtest.Heavy(t, "starts Chromium")
	var docs []Doc
	for k, c := range precisionCases {
		d := c.doc
		d.ID, d.Date = fmt.Sprintf("IL-%04d", k+1), "2024-01-01"
		docs = append(docs, d)
	}
	dir := indexDir(t, docs, precisionLabels, defaultConfig)
	writeFile(t, filepath.Join(dir, "index.html"), []byte(`<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>t</title></head><body><script src="js/search.js"></script></body></html>`))
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	ctx, stop, err := webtest.StartBrowser(context.Background(), t.TempDir())
	if err != nil {
		webtest.Missing(t, "Chromium", err)
	}
	defer stop()
	// On a loaded machine the poll can reach the blank page's script context
	// just as the new document replaces it ("Cannot find context with
	// specified id", once in CI): the page is loaded again once.
	open := func() error {
		return chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/index.html"), chromedp.Poll[chromedp.Void](`!!window.IncidentSearch`))
	}
	if err := open(); err != nil && strings.Contains(err.Error(), "Cannot find context") {
		t.Logf("loaded again after: %v", err)
		err = open()
		if err != nil {
			t.Fatal(err)
		}
	} else if err != nil {
		t.Fatal(err)
	}
	for k, c := range precisionCases {
		q, _ := json.Marshal(c.q)
		ids, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`IncidentSearch.open("search/").search(`+string(q)+`, { limit: 100 }).then(r => r.hits.map(h => h.record.id))`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := fmt.Sprintf("IL-%04d", k+1)
		if contains(ids, want) != c.match {
			t.Errorf("%s: %q found %v in the browser; want %s found: %v. %s", c.name, c.q, ids, want, c.match, c.comment)
		}
	}
	for _, c := range []struct{ text, q, want string }{
		{"워크로드 로드를 늘렸다", "로드", "로드"},
		{"인증 서비스와 인증서", "인증서", "인증서"},
		{"레지스트리 클러스터", "레지스터", ""},
		{"3월에 30분 동안", "3월", "3월"},
	} {
		arg, _ := json.Marshal([]string{c.text, c.q})
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(([text, q]) => IncidentSearch.highlightRanges(text, IncidentSearch.query(q, false)).map(([s, e]) => text.slice(s, e)).join("|"))(`+string(arg)+`)`))
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("%q in %q: the page marks %q, want %q", c.q, c.text, got, c.want)
		}
	}
}

// sameSet reports whether a and b hold the same strings, in any order.
func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, s := range a {
		seen[s]++
	}
	for _, s := range b {
		if seen[s] == 0 {
			return false
		}
		seen[s]--
	}
	return true
}
