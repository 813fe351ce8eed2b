package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"incidentlib/internal/webtest"
)

// The search tests drive the search page and the all-cases list of the real
// site in Chromium, once over HTTP (the public build) and once from file://
// (the offline build that TestMain makes, whose links name index.html and
// whose index loads through <script> elements). Every step also fails on
// any failed request, console error or uncaught exception of the page.

// searchCase is the part of a case JSON the search checks need.
type searchCase struct {
	ID         string            `json:"id"`
	Title      map[string]string `json:"title"`
	Components []string          `json:"components"`
	Domain     []string          `json:"domain"`
	Symptoms   []string          `json:"symptoms"`
	OrgSlug    string            `json:"org_slug"`
	// Withdrawn is set on a withdrawn case, which search leaves out.
	Withdrawn json.RawMessage `json:"withdrawn"`
	// crashLoop says that the case's text writes a crash loop in any form.
	crashLoop bool
}

var crashLoopRE = regexp.MustCompile(`(?i)crash[- ]?loop`)

func searchCases(t *testing.T) map[string]searchCase {
	t.Helper()
	out := map[string]searchCase{}
	for _, c := range cases(t) {
		b, err := os.ReadFile(filepath.Join(contentDir, "cases", c.ID+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var sc searchCase
		if err := json.Unmarshal(b, &sc); err != nil {
			t.Fatal(err)
		}
		if len(sc.Withdrawn) > 0 && string(sc.Withdrawn) != "null" {
			continue // withdrawn: its page stays, search leaves it out
		}
		sc.crashLoop = crashLoopRE.Match(b)
		out[sc.ID] = sc
	}
	return out
}

// with returns the IDs of the cases for which has is true, sorted.
func with(all map[string]searchCase, has func(searchCase) bool) []string {
	var ids []string
	for id, c := range all {
		if has(c) {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

func hasTerm(list []string, term string) bool {
	for _, v := range list {
		if v == term {
			return true
		}
	}
	return false
}

// siteMode opens pages of one build: path is a page folder such as
// "en/search/" and query an optional "?…".
type siteMode struct {
	name string
	url  func(path, query string) string
}

func siteModes(t *testing.T) []siteMode {
	public, off := site(t), offline(t)
	base := webtest.Serve(t, public)
	return []siteMode{
		{"http", func(p, q string) string { return base + "/" + p + q }},
		{"file", func(p, q string) string { return webtest.FileURL(t, filepath.Join(off, p, "index.html")) + q }},
	}
}

// searchTab wraps a tab with the steps the search checks repeat.
type searchTab struct {
	t   *testing.T
	tab *webtest.Tab
}

const (
	pageForm  = `form[data-search="page"]`
	pageInput = pageForm + ` input[name="q"]`
	statusSel = `[data-search-status]`
)

func (s searchTab) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(s.tab.Ctx, webtest.PageTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		s.t.Fatalf("%s: %v (status %q)", what, err, s.str(`document.querySelector("`+statusSel+`")?.textContent ?? "no status"`))
	}
}

// waitFor polls expr until it is true. Unlike chromedp.Poll it survives a
// navigation, which destroys the page's JavaScript context under the poll.
func (s searchTab) waitFor(expr string) {
	s.t.Helper()
	deadline := time.Now().Add(webtest.PageTimeout)
	for time.Now().Before(deadline) {
		if ok, err := chromedp.Run(s.tab.Ctx, chromedp.Evaluate[bool](expr)); err == nil && ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("still not true after %v: %s (page %s)", webtest.PageTimeout, expr, s.str(`location.href`))
}

func (s searchTab) str(expr string) string {
	s.t.Helper()
	v, err := chromedp.Run(s.tab.Ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		s.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

func (s searchTab) strs(expr string) []string {
	s.t.Helper()
	v, err := chromedp.Run(s.tab.Ctx, chromedp.Evaluate[[]string](expr))
	if err != nil {
		s.t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// open loads a page and waits until the search controller has drawn its
// first state: the facet filters, which both the search page and the list
// show before anything is typed.
func (s searchTab) open(u string) {
	s.t.Helper()
	s.tab.Open(s.t, u)
	s.do("wait for the facet filters of "+u, chromedp.WaitVisible(chromedp.CSS(`[data-search-facets] fieldset`)))
}

// typeQuery types q into the page's search form and waits for the status
// line to name it, which is written when the results are drawn, for the
// rest of the first page of results, which a query being typed gets a
// moment later, and for the facet counts of the open groups.
func (s searchTab) typeQuery(q string) {
	s.t.Helper()
	quoted, _ := json.Marshal("\u201c" + q + "\u201d")
	s.do("type "+q, chromedp.SendKeys(chromedp.CSS(pageInput), q),
		chromedp.Poll[chromedp.Void](`document.querySelector("`+statusSel+`").textContent.includes(`+string(quoted)+`) && !document.querySelector("[data-search-facets] [aria-busy]") && ((c) => c.last && c.last.hits.length >= Math.min(c.shown, c.last.total))(document.querySelector(`+jsString(pageForm)+`).__incidentSearch)`))
}

// openGroup opens the folded filter group of facet f and waits for its
// terms and counts.
func (s searchTab) openGroup(f string) {
	s.t.Helper()
	s.do("open the "+f+" group", chromedp.Click(chromedp.CSS(`[data-facet-toggle="`+f+`"]`)),
		chromedp.Poll[chromedp.Void](`document.querySelector('[data-facet-toggle="`+f+`"]').getAttribute("aria-expanded") === "true" && !!document.querySelector('fieldset[data-facet="`+f+`"] input') && !document.querySelector('fieldset[data-facet="`+f+`"][aria-busy]')`))
}

// groupScope returns what the open group of facet f says its counts are of.
func (s searchTab) groupScope(f string) string {
	return s.str(`document.querySelector('fieldset[data-facet="` + f + `"] .search-facet-scope')?.textContent ?? "none"`)
}

func (s searchTab) resultIDs() []string {
	return s.strs(`Array.from(document.querySelectorAll("[data-search-results] .search-result-id")).map(e => e.textContent)`)
}

// allResultIDs presses "show more" until every result is shown, then
// returns the ids, for queries that match more cases than one page holds.
func (s searchTab) allResultIDs() []string {
	s.t.Helper()
	for {
		ids := s.resultIDs()
		if s.str(`String(document.querySelector(".search-more").hidden)`) == "true" {
			return ids
		}
		s.do("show more results", chromedp.Click(chromedp.CSS(".search-more")),
			chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.querySelectorAll("[data-search-results] .search-result-id").length > %d`, len(ids))))
	}
}

func (s searchTab) resultTitle(id string) string {
	idJSON, _ := json.Marshal(id)
	return s.str(`(() => { const r = Array.from(document.querySelectorAll("[data-search-results] .search-result")).find(li => li.querySelector(".search-result-id").textContent === ` + string(idJSON) + `); return r ? r.querySelector(".search-result-title").textContent : ""; })()`)
}

// checkClean reports what went wrong in the tab since the last open.
func (s searchTab) checkClean(where string) {
	s.t.Helper()
	for _, p := range s.tab.Problems() {
		s.t.Errorf("%s: %s", where, p)
	}
}

func (s searchTab) axe(where string) {
	s.t.Helper()
	for _, v := range webtest.Axe(s.t, s.tab.Ctx) {
		s.t.Errorf("%s: axe: %s", where, v)
	}
}

func missing(got, want []string) []string {
	var out []string
	for _, w := range want {
		if !hasTerm(got, w) {
			out = append(out, w)
		}
	}
	return out
}

// TestSearchQueries types queries on the search page of both languages and
// checks which cases they find, over HTTP and from disk.
func TestSearchQueries(t *testing.T) {
	t.Parallel()
	modes := siteModes(t)
	all := searchCases(t)
	tab := webtest.Browser(t)
	ingress := with(all, func(c searchCase) bool { return hasTerm(c.Components, "ingress") })
	kubernetes := with(all, func(c searchCase) bool { return hasTerm(c.Domain, "kubernetes") })
	google := with(all, func(c searchCase) bool { return c.OrgSlug == "google-cloud" })
	honeycomb := with(all, func(c searchCase) bool { return c.OrgSlug == "honeycomb" })
	oom := with(all, func(c searchCase) bool { return hasTerm(c.Symptoms, "oom-kills") })
	crash := with(all, func(c searchCase) bool { return c.crashLoop })
	if len(ingress) < 2 || len(kubernetes) < 2 || len(google) == 0 || len(honeycomb) == 0 || len(oom) == 0 || len(crash) < 2 {
		t.Fatalf("the content has too few cases to test with: ingress %v, kubernetes %v, google %v, honeycomb %v, oom %v, crash loop %v", ingress, kubernetes, google, honeycomb, oom, crash)
	}
	tests := []struct {
		name, lang, q string
		want          []string
		// marked: the query's words appear in the text shown (the
		// page's language), so some must be highlighted.
		marked bool
	}{
		{"english", "en", "load balancer", []string{"IL-0495", "IL-0338"}, true},
		{"korean with particles", "ko", "로드 밸런서가", []string{"IL-0495"}, true},
		{"korean without spaces", "ko", "로드밸런서", []string{"IL-0495"}, true},
		{"korean on the english page", "en", "로드 밸런서가", []string{"IL-0495"}, false},
		{"korean label finds the tag", "en", "인그레스", ingress, false},
		{"korean label on the korean page", "ko", "인그레스", ingress, false},
		{"english label finds 쿠버네티스", "ko", "kubernetes", kubernetes, false},
		{"organisation in Hangul", "ko", "구글", google, false},
		{"organisation in Hangul on the english page", "en", "허니콤", honeycomb, false},
		{"crashloop finds every form of crash loop", "en", "crashloop", crash, false},
		{"OOM finds the out-of-memory label", "en", "OOM", oom, false},
		{"full-width Latin", "ko", "ＨｕｂＳｐｏｔ", []string{"IL-0495"}, false},
	}
	for _, m := range modes {
		for _, tc := range tests {
			t.Run(m.name+"/"+tc.name, func(t *testing.T) {
				s := searchTab{t, tab}
				u := m.url(tc.lang+"/search/", "")
				s.open(u)
				s.typeQuery(tc.q)
				got := s.allResultIDs()
				if miss := missing(got, tc.want); len(miss) > 0 {
					t.Errorf("%s: %q found %v, missing %v", u, tc.q, got, miss)
				}
				// The page language picks the title shown, whatever the
				// language of the query.
				for _, id := range tc.want {
					if title := s.resultTitle(id); title != "" && normSpace(title) != normSpace(all[id].Title[tc.lang]) {
						t.Errorf("%s: %q: %s is shown as %q, want its %s title %q", u, tc.q, id, title, tc.lang, all[id].Title[tc.lang])
					}
				}
				if n := s.str(`String(document.querySelectorAll("[data-search-results] mark").length)`); tc.marked && n == "0" {
					t.Errorf("%s: %q: no match is highlighted", u, tc.q)
				}
				s.checkClean(u)
			})
		}
	}
}

// TestSearchFacetsAndURL checks the empty state's facet counts, that a
// ticked facet's count is the number of results, that the URL then restores
// the same results in a fresh page, keyboard use, and axe with results shown.
func TestSearchFacetsAndURL(t *testing.T) {
	t.Parallel()
	modes := siteModes(t)
	all := searchCases(t)
	tab := webtest.Browser(t)
	ingress := with(all, func(c searchCase) bool { return hasTerm(c.Components, "ingress") })
	for _, m := range modes {
		for _, lang := range langs {
			t.Run(m.name+"/"+lang, func(t *testing.T) {
				s := searchTab{t, tab}
				u := m.url(lang+"/search/", "")
				s.open(u)

				// Before anything is typed: every facet is a folded group;
				// opened, it counts over all cases, and says so.
				s.openGroup("components")
				if sc, want := s.groupScope("components"), map[string]string{"en": "Numbers are cases in the whole library.", "ko": "숫자는 라이브러리 전체의 사례 수입니다."}[lang]; sc != want {
					t.Errorf("%s: empty state: the components group says %q, want %q", u, sc, want)
				}
				if n := s.str(`document.querySelector('[data-search-facets] input[name="components"][value="ingress"]')?.closest("label").querySelector(".search-facet-count").textContent ?? "none"`); n != fmt.Sprintf("(%d)", len(ingress)) {
					t.Errorf("%s: empty state: the ingress filter shows %s, want (%d), the cases tagged ingress", u, n, len(ingress))
				}
				if ids := s.resultIDs(); len(ids) != 0 {
					t.Errorf("%s: empty state lists results %v", u, ids)
				}

				s.typeQuery("load balancer")
				before := s.resultIDs()
				if sc, want := s.groupScope("components"), map[string]string{"en": "Numbers are cases in these results.", "ko": "숫자는 이 검색 결과의 사례 수입니다."}[lang]; sc != want {
					t.Errorf("%s: with results the open components group says %q, want %q", u, sc, want)
				}
				// Tick the first component offered and compare its count with
				// the results it leaves.
				box := `document.querySelector('fieldset[data-facet="components"] input[type="checkbox"]')`
				value := s.str(box + `.value`)
				count := s.str(box + `.closest("label").querySelector(".search-facet-count").textContent`)
				s.do("tick "+value, chromedp.Click(chromedp.CSS(`fieldset[data-facet="components"] input[value="`+value+`"]`)),
					chromedp.Poll[chromedp.Void](`location.search.includes("components=`+value+`") && document.querySelector("[data-search-status]").textContent !== "`+loadingText(lang)+`"`))
				ids := s.resultIDs()
				if fmt.Sprintf("(%d)", len(ids)) != count {
					t.Errorf("%s: component %s showed %s, ticking it left %d results %v", u, value, count, len(ids), ids)
				}
				if more := s.str(`String(document.querySelector(".search-more").hidden)`); more != "true" {
					t.Errorf("%s: the results are paged, the count check needs them all on one page", u)
				}
				if len(ids) == 0 || len(missing(before, ids)) > 0 {
					t.Errorf("%s: after ticking %s: %v, not a subset of %v", u, value, ids, before)
				}
				s.axe(u + " with results")
				s.checkClean(u)

				// The URL the page wrote restores the same results.
				shared := s.str(`location.href`)
				if !strings.Contains(shared, "q=load+balancer") {
					t.Errorf("the shared URL %s does not carry the query", shared)
				}
				want := m.url(lang+"/search/", "?q="+url.QueryEscape("load balancer")+"&components="+value)
				for _, link := range []string{shared, want} {
					s.open(link)
					s.do("wait for results", chromedp.WaitVisible(chromedp.CSS(`[data-search-results] li`)))
					s.openGroup("components")
					if got := s.resultIDs(); strings.Join(got, " ") != strings.Join(ids, " ") {
						t.Errorf("%s restores %v, want %v", link, got, ids)
					}
					if v := s.str(`document.querySelector(` + jsString(pageInput) + `).value`); v != "load balancer" {
						t.Errorf("%s: the input holds %q", link, v)
					}
					if c := s.str(`String(document.querySelector('fieldset[data-facet="components"] input[value="` + value + `"]').checked)`); c != "true" {
						t.Errorf("%s: the %s filter is not ticked", link, value)
					}
					s.checkClean(link)
				}

				// Keyboard: ArrowDown to the first result, Enter opens it.
				first := ids[0]
				s.do("arrow down", chromedp.Focus(chromedp.CSS(pageInput)), chromedp.KeyEvent(kb.ArrowDown))
				if a := s.str(`document.activeElement.closest(".search-result")?.querySelector(".search-result-id").textContent ?? document.activeElement.outerHTML.slice(0, 80)`); a != first {
					t.Errorf("%s: ArrowDown focused %s, want the first result %s", u, a, first)
				}
				s.do("enter", chromedp.KeyEvent(kb.Enter))
				s.waitFor(`location.pathname.includes("/cases/` + first + `/") && document.readyState === "complete"`)
				if h1 := s.str(`document.querySelector("h1")?.textContent ?? ""`); normSpace(h1) != normSpace(all[first].Title[lang]) {
					t.Errorf("Enter on %s opened a page titled %q", first, h1)
				}
				if p := s.str(`location.pathname`); m.name == "file" && !strings.HasSuffix(p, "/index.html") {
					t.Errorf("from disk, Enter opened %s, want a path that names index.html", p)
				}
				s.checkClean("the case page opened with Enter")
			})
		}
	}
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func loadingText(lang string) string {
	if lang == "ko" {
		return "찾는 중…"
	}
	return "Searching…"
}

// TestSearchList checks the all-cases list: facets with counts before
// anything is chosen, the results standing in for the static cards while a
// filter is on, the cards back when it is cleared, and axe with a filter on.
func TestSearchList(t *testing.T) {
	t.Parallel()
	modes := siteModes(t)
	all := searchCases(t)
	tab := webtest.Browser(t)
	ingress := with(all, func(c searchCase) bool { return hasTerm(c.Components, "ingress") })
	visible := func(s searchTab, sel string) string {
		return s.str(`(() => { const e = document.querySelector("` + sel + `"); return e ? String(e.checkVisibility()) : "missing"; })()`)
	}
	for _, m := range modes {
		for _, lang := range langs {
			t.Run(m.name+"/"+lang, func(t *testing.T) {
				s := searchTab{t, tab}
				u := m.url(lang+"/cases/", "")
				s.open(u)
				if v := visible(s, "main .cards"); v != "true" {
					t.Errorf("%s: before any filter the static cards are visible=%s", u, v)
				}
				if v := visible(s, "main .pager"); v != "true" {
					t.Errorf("%s: before any filter the pager is visible=%s", u, v)
				}
				s.openGroup("components")
				s.do("tick ingress", chromedp.Click(chromedp.CSS(`fieldset[data-facet="components"] input[value="ingress"]`)),
					chromedp.WaitVisible(chromedp.CSS(`[data-search-results] li`)))
				ids := s.resultIDs()
				sort.Strings(ids)
				// The results show a page of search.js's PAGE_SIZE (20) at
				// first: every matching case when they are fewer, otherwise
				// that many of them (a case without a date comes last).
				const firstPage = 20
				if n := min(len(ingress), firstPage); len(ids) != n || !subset(ids, ingress) {
					t.Errorf("%s: components=ingress lists %v, want %d of %v", u, ids, n, ingress)
				}
				// The filtered list says what it is filtered by and which
				// cases it shows, as the static list does.
				h1 := s.str(`document.querySelector("main h1").textContent`)
				wantBy, wantRange := "Component: Ingress controller", fmt.Sprintf("1\u2013%d of %d", len(ids), len(ingress))
				if lang == "ko" {
					wantBy, wantRange = "구성 요소: 인그레스 컨트롤러", fmt.Sprintf("%d건 중 1~%d번째", len(ingress), len(ids))
				}
				if !strings.Contains(h1, wantBy) {
					t.Errorf("%s: the filtered list's heading %q does not say %q", u, h1, wantBy)
				}
				if st := s.str(`document.querySelector("` + statusSel + `").textContent`); !strings.Contains(st, wantRange) {
					t.Errorf("%s: the filtered list's status %q lacks the range %q", u, st, wantRange)
				}
				for _, sel := range []string{"main .cards", "main .pager"} {
					if v := visible(s, sel); v != "false" {
						t.Errorf("%s: with a filter on, %s is visible=%s", u, sel, v)
					}
				}
				s.axe(u + " with a filter")
				s.do("clear", chromedp.Click(chromedp.CSS(`[data-facets-clear]`)),
					chromedp.Poll[chromedp.Void](`document.querySelectorAll("[data-search-results] li").length === 0`))
				if v := visible(s, "main .cards"); v != "true" {
					t.Errorf("%s: after clearing the filters the static cards are visible=%s", u, v)
				}
				if after := s.str(`document.querySelector("main h1").textContent`); after == h1 || strings.Contains(after, wantBy) {
					t.Errorf("%s: after clearing the filters the heading is still %q", u, after)
				}
				s.checkClean(u)
			})
		}
	}
}

// TestSearchWithoutJS checks what a reader without JavaScript gets: the
// search page explains itself and links to the topic pages, and the list
// keeps its static cards.
func TestSearchWithoutJS(t *testing.T) {
	t.Parallel()
	modes := siteModes(t)
	tab := webtest.Browser(t)
	if _, err := chromedp.Call(tab.Ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	for _, m := range modes {
		for _, lang := range langs {
			t.Run(m.name+"/"+lang, func(t *testing.T) {
				s := searchTab{t, tab}
				u := m.url(lang+"/search/", "")
				tab.Open(t, u)
				text := s.str(`document.querySelector("main").innerText`)
				want := map[string]string{"en": "needs JavaScript", "ko": "JavaScript"}[lang]
				if !strings.Contains(text, want) {
					t.Errorf("%s without JavaScript does not explain itself: %q", u, text)
				}
				if n := s.str(`String(document.querySelectorAll("main noscript").length)`); n == "0" {
					t.Errorf("%s: no <noscript>", u)
				}
				links := s.strs(`Array.from(document.querySelectorAll("main a")).filter(a => a.checkVisibility()).map(a => a.getAttribute("href"))`)
				// Links are written from the folder the pages share
				// (en/search/ → en/components/).
				if !hasTerm(links, "../components/") && !hasTerm(links, "../components/index.html") {
					t.Errorf("%s without JavaScript links to %v, want the topic pages", u, links)
				}
				l := m.url(lang+"/cases/", "")
				tab.Open(t, l)
				if n := s.str(`String(document.querySelectorAll("main .cards .card").length)`); n == "0" {
					t.Errorf("%s without JavaScript shows no case card", l)
				}
				if v := s.str(`String(document.querySelector("main .cards").checkVisibility())`); v != "true" {
					t.Errorf("%s without JavaScript hides its cards", l)
				}
			})
		}
	}
}

// TestSearchScriptCopies checks that the script copies of the index files,
// which only pages opened from file:// read, are in the offline bundle and
// nowhere else.
func TestSearchScriptCopies(t *testing.T) {
	for _, c := range []struct {
		dir  string
		want bool
	}{{site(t), false}, {offline(t), true}} {
		var js []string
		err := filepath.WalkDir(filepath.Join(c.dir, "search"), func(p string, d os.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".js") {
				js = append(js, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		_, err = os.Stat(filepath.Join(c.dir, "search", "manifest.js"))
		if got := err == nil; got != c.want || !c.want && len(js) > 0 {
			t.Errorf("%s: manifest.js there %v (want %v); %d script files", c.dir, got, c.want, len(js))
		}
	}
}

// subset reports whether every id of some is in all.
func subset(some, all []string) bool {
	in := make(map[string]bool, len(all))
	for _, id := range all {
		in[id] = true
	}
	for _, id := range some {
		if !in[id] {
			return false
		}
	}
	return true
}
