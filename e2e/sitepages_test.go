package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"incidentlib/internal/webtest"
)

// pageTypes are one page of every kind, by site path, for each language:
// the sample the browser checks of TestLayout and TestDarkScheme open.
var pageTypes = []string{
	"{lang}/", "{lang}/cases/", "{lang}/cases/page/2/", "{lang}/components/", "{lang}/components/ingress/",
	"{lang}/root-causes/software-bug/", "{lang}/orgs/", "{lang}/orgs/hubspot/", "{lang}/years/2019/",
	"{lang}/severities/sev1/", "{lang}/search/", "{lang}/about/", "{lang}/api/", "{lang}/prepare/",
}

// eval evaluates a script in the tab's page.
func eval[T any](t *testing.T, tab *webtest.Tab, expr string) T {
	t.Helper()
	v, err := chromedp.Run(tab.Ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// click clicks the first element matching sel and waits for the next page.
func click(t *testing.T, tab *webtest.Tab, sel string) string {
	t.Helper()
	before := eval[string](t, tab, `location.href`)
	// chromedp waits for the element to appear: a deadline turns a
	// missing one into a failure instead of a hang.
	ctx, cancel := context.WithTimeout(tab.Ctx, webtest.PageTimeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatalf("click %s on %s: %v", sel, before, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		after, err := chromedp.Run(tab.Ctx, chromedp.Evaluate[string](`document.readyState === "complete" ? location.href : ""`))
		if err == nil && after != "" && after != before {
			return after
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("click %s on %s: no new page", sel, before)
	return ""
}

// TestOfflineJourney walks the offline bundle from disk the way a reader in
// a room without network would: from index.html through a language switch,
// a topic, page 2 of the case list, a Korean search, a result and a related
// case, with no failed request anywhere.
func TestOfflineJourney(t *testing.T) {
	t.Parallel()
	dir := offline(t)
	tab := webtest.Browser(t)
	tab.Open(t, webtest.FileURL(t, filepath.Join(dir, "index.html")))
	steps := []struct{ what, sel, want string }{
		{"choose English", `a[hreflang="en"]`, "/en/index.html"},
		{"switch to Korean", `a.lang`, "/ko/index.html"},
		// Links are written from the folder the pages share: "cases/"
		// on a language's home.
		{"open a topic", `.topic-grid a[href^="components/"]`, "/ko/components/"},
		{"open the case list", `nav.nav a[href$="cases/index.html"]`, "/ko/cases/index.html"},
		{"go to page 2", `.pager a[rel="next"]`, "/ko/cases/page/2/index.html"},
		// The list has no header search box (it has its own filters).
		{"open the components", `nav.nav a[href$="components/index.html"]`, "/ko/components/index.html"},
	}
	for _, s := range steps {
		url := click(t, tab, s.sel)
		if !strings.HasPrefix(url, "file://") || !strings.Contains(url, s.want) {
			t.Fatalf("%s: at %s, want …%s", s.what, url, s.want)
		}
	}
	// A Korean search with a particle, typed into the header box.
	ctx, cancel := context.WithTimeout(tab.Ctx, webtest.PageTimeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.SendKeys(chromedp.CSS(`#q-header`), "로드 밸런서가")); err != nil {
		t.Fatalf("type into the header search box: %v", err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Submit(chromedp.CSS(`#q-header`))); err != nil {
		t.Fatalf("submit the header search box: %v", err)
	}
	n := 0
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) && n == 0 {
		time.Sleep(100 * time.Millisecond)
		n, _ = chromedp.Run(tab.Ctx, chromedp.Evaluate[int](`document.querySelectorAll("[data-search-results] a").length`))
	}
	if n == 0 {
		status := eval[string](t, tab, `(document.querySelector("[data-search-status]")||{}).textContent||""`)
		t.Fatalf("Korean search from disk found nothing (status %q)", status)
	}
	url := click(t, tab, `[data-search-results] a[href*="IL-0495"]`)
	if !strings.Contains(url, "/ko/cases/IL-0495/index.html") {
		t.Fatalf("search result opened %s", url)
	}
	url = click(t, tab, `#related ul.related a`)
	if !strings.Contains(url, "/ko/cases/IL-") || strings.Contains(url, "IL-0495") {
		t.Fatalf("related case opened %s", url)
	}
	if h1 := eval[string](t, tab, `document.querySelector("h1").textContent`); strings.TrimSpace(h1) == "" {
		t.Error("related case page has no title")
	}
	for _, p := range tab.Problems() {
		t.Errorf("offline journey: %s", p)
	}
}

// TestSubPath builds the site for a sub-path and serves it there: every link
// must stay inside, and canonical links name the sub-path.
func TestSubPath(t *testing.T) {
	t.Parallel()
	site(t)
	root, _ := webtest.RepoRoot()
	out := filepath.Join(t.TempDir(), "sub")
	if o, err := run(root, filepath.Join(tmpDir, "incidentlib"), "build", "-content", contentDir, "-out", out, "-base-url", "https://example.org/incidentlib/"); err != nil {
		t.Fatalf("build: %v\n%s", err, o)
	}
	page, err := os.ReadFile(filepath.Join(out, "ko", "cases", "IL-0495", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `<link rel="canonical" href="https://example.org/incidentlib/ko/cases/IL-0495/">`) {
		t.Error("canonical link does not name the sub-path")
	}
	for _, l := range webtest.LinksUnder(t, out, "/incidentlib") {
		t.Errorf("broken link under /incidentlib/: %s", l)
	}
}
