package e2e

import (
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"incidentlib/internal/webtest"
)

// sitePrefix is the path the shipped site is built for (site.json's
// base_url): the tests below serve it there, as its host does.
const sitePrefix = "/incidentlib"

// htmlPages lists every HTML page of the built site by site path, folder
// pages by their folder ("en/cases/").
func htmlPages(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, strings.TrimSuffix(filepath.ToSlash(rel), "index.html"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// servedSite serves the shipped site under sitePrefix, as its host does,
// and opens a browser for it.
func servedSite(t *testing.T) (*webtest.Tab, string) {
	t.Helper()
	public := site(t)
	return webtest.Browser(t), webtest.ServeUnder(t, public, sitePrefix)
}

// layoutProbe measures the page as laid out: whether it is wider than the
// window (and the deepest elements that stick out, to name the culprit),
// and search inputs whose placeholder does not fit.
const layoutProbe = `(() => {
  const doc = document.documentElement, w = doc.clientWidth;
  const wide = [];
  if (doc.scrollWidth > w) {
    for (const e of document.body.querySelectorAll("*")) {
      const r = e.getBoundingClientRect();
      if (r.right > w + 1 && r.width > 0 && !Array.from(e.children).some(c => c.getBoundingClientRect().right > w + 1)) {
        let scroller = false;
        for (let a = e.parentElement; a; a = a.parentElement) {
          if (["auto", "scroll", "hidden"].includes(getComputedStyle(a).overflowX)) { scroller = true; break; }
        }
        if (!scroller) wide.push(e.tagName.toLowerCase() + (e.className ? "." + String(e.className).split(" ").join(".") : "") + " " + Math.round(r.right) + "px: " + (e.textContent || "").trim().slice(0, 60));
      }
    }
  }
  const cut = [];
  const ctx = document.createElement("canvas").getContext("2d");
  for (const i of document.querySelectorAll("input[placeholder]")) {
    const r = i.getBoundingClientRect(), cs = getComputedStyle(i);
    if (r.width === 0 || cs.visibility === "hidden") continue;
    ctx.font = cs.fontStyle + " " + cs.fontWeight + " " + cs.fontSize + " " + cs.fontFamily;
    const room = i.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const need = ctx.measureText(i.placeholder).width;
    if (need > room) cut.push("#" + i.id + " needs " + Math.round(need) + "px, has " + Math.round(room) + "px");
  }
  return JSON.stringify({scroll: doc.scrollWidth, width: w, wide: wide.slice(0, 5), cut});
})()`

type layoutResult struct {
	Scroll int      `json:"scroll"`
	Width  int      `json:"width"`
	Wide   []string `json:"wide"`
	Cut    []string `json:"cut"`
}

// screens are the widths every page is checked at: the narrowest phone in
// use, a common phone and a desktop.
var screens = []struct {
	name string
	vp   webtest.Viewport
}{
	{"320", webtest.Viewport{Width: 320, Height: 568, Mobile: true}},
	{"390", webtest.Phone},
	{"1280", webtest.Desktop},
}

// checkLayout measures the page open in tab: nothing scrolls sideways and
// no search placeholder is cut off.
func checkLayout(t *testing.T, tab *webtest.Tab, p, width string) {
	t.Helper()
	var r layoutResult
	if err := json.Unmarshal([]byte(eval[string](t, tab, layoutProbe)), &r); err != nil {
		t.Fatal(err)
	}
	if r.Scroll > r.Width {
		t.Errorf("%s at %s px: the page is %d px wide; sticking out: %s", p, width, r.Scroll, strings.Join(r.Wide, " | "))
	}
	for _, c := range r.Cut {
		t.Errorf("%s at %s px: placeholder cut off: %s", p, width, c)
	}
}

// TestLayout opens a page of every kind in both languages (pageTypes, the
// language chooser, the 404 page and a case page) at 320, 390 and 1280 px
// and checks that nothing scrolls sideways and that no search placeholder
// is cut off; on phones, that the first case of a list and the first result
// of a search sit within the first screen; at 1280 px, what every page must
// pass (checkOpenPage: language, Korean font, axe, browser log). Every case page is laid out at
// 320 px by TestCasePages: what varies from page to page of a kind is the
// case text, and the narrowest width is where it overflows first.
func TestLayout(t *testing.T) {
	t.Parallel()
	tab, base := servedSite(t)
	pages := []string{"", "404.html"}
	for _, p := range append(pageTypes, "{lang}/cases/IL-0495/", "{lang}/contributing/", "{lang}/contribute/") {
		for _, lang := range langs {
			pages = append(pages, strings.ReplaceAll(p, "{lang}", lang))
		}
	}
	have := map[string]bool{}
	for _, p := range htmlPages(t, site(t)) {
		have[p] = true
	}
	for _, p := range pages {
		if !have[p] {
			t.Errorf("%s is not a page of the site; the sample of TestLayout needs a page that exists", p)
		}
	}
	for _, sc := range screens {
		opts := []chromedp.EmulateViewportOption{chromedp.EmulatePortrait}
		if sc.vp.Mobile {
			opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
		}
		if err := chromedp.Do(tab.Ctx, chromedp.EmulateViewport(sc.vp.Width, sc.vp.Height, opts...)); err != nil {
			t.Fatal(err)
		}
		t.Run(sc.name, func(t *testing.T) {
			for _, p := range pages {
				tab.Open(t, base+"/"+p)
				checkLayout(t, tab, p, sc.name)
				// At desktop width, the checks of every page: a heading,
				// the language, the Korean font, axe (with the light
				// scheme; TestDarkScheme the dark) and the browser's log.
				// The 404 page is TestNotFoundNested's.
				if !sc.vp.Mobile && p != "404.html" {
					if h1 := eval[string](t, tab, `(document.querySelector("h1")||{}).textContent||""`); strings.TrimSpace(h1) == "" {
						t.Errorf("%s: no heading", p)
					}
					lang := "en"
					if strings.HasPrefix(p, "ko/") {
						lang = "ko"
					}
					checkOpenPage(t, tab, base+"/"+p, lang, "main")
				}
			}
			if !sc.vp.Mobile {
				return
			}
			// Results first: the first case of a list, and the first result
			// of a search, are on the first screen; a topic page begins with
			// its introduction, which comes before its cases on a phone
			// (issue 27; TestReading checks the order).
			first := func(what, url, sel string) {
				tab.Open(t, url)
				s := searchTab{t, tab}
				s.waitFor(`!!document.querySelector(` + jsString(sel) + `)`)
				top := eval[float64](t, tab, `document.querySelector(`+jsString(sel)+`).getBoundingClientRect().top`)
				if top >= float64(sc.vp.Height) {
					t.Errorf("%s at %s px: the first result starts at %.0f px, below the first screen (%d px)", what, sc.name, top, sc.vp.Height)
				}
			}
			for _, lang := range langs {
				first(lang+" case list", base+"/"+lang+"/cases/", "main > .cards .card")
				first(lang+" topic", base+"/"+lang+"/components/ingress/", "main > .intro")
				first(lang+" search", base+"/"+lang+"/search/?q=kubernetes", "[data-search-results] .search-result")
			}
		})
	}
	if err := chromedp.Do(tab.Ctx, chromedp.ResetViewport()); err != nil {
		t.Fatal(err)
	}
}

// TestPhoneFilters checks that on a phone the search filters are folded
// behind a button that opens them.
func TestPhoneFilters(t *testing.T) {
	t.Parallel()
	tab, base := servedSite(t)
	if err := chromedp.Do(tab.Ctx, chromedp.EmulateViewport(webtest.Phone.Width, webtest.Phone.Height, chromedp.EmulateMobile)); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/en/search/", "/ko/cases/"} {
		s := searchTab{t, tab}
		tab.Open(t, base+p)
		s.waitFor(`document.querySelectorAll("[data-search-facets] fieldset").length > 0`)
		visible := `document.querySelector("[data-search-facets]").getBoundingClientRect().height > 0`
		if eval[bool](t, tab, visible) {
			t.Errorf("%s: the filters show on a phone before the button is pressed", p)
		}
		ctx, cancel := context.WithTimeout(tab.Ctx, 10*time.Second)
		_, err := chromedp.Run(ctx, chromedp.Click(chromedp.CSS(`[data-search-fold]`)))
		cancel()
		if err != nil {
			t.Fatalf("%s: press the filter button: %v", p, err)
		}
		if !eval[bool](t, tab, visible) || eval[string](t, tab, `document.querySelector("[data-search-fold]").getAttribute("aria-expanded")`) != "true" {
			t.Errorf("%s: the filter button does not open the filters", p)
		}
	}
}

// TestNotFoundNested serves the site as a static host does under its path
// prefix, with 404.html for any missing path, and opens a missing page deep
// in the site: the page must be styled and every link on it must work.
func TestNotFoundNested(t *testing.T) {
	t.Parallel()
	tab, base := servedSite(t)
	for _, p := range []string{"/en/cases/IL-9999/", "/ko/components/nothing/page/3/", "/missing.html"} {
		url := base + p
		tab.Open(t, url)
		if !eval[bool](t, tab, `Array.from(document.styleSheets).some(s => s.href && s.cssRules.length > 10)`) {
			t.Errorf("%s: the stylesheet did not load", p)
		}
		// The page itself is answered with 404, as it should: any other
		// failed request is a problem.
		for _, pr := range tab.Problems() {
			if !strings.HasSuffix(pr, " "+url) {
				t.Errorf("%s: %s", url, pr)
			}
		}
		for _, v := range webtest.Axe(t, tab.Ctx) {
			t.Errorf("%s: axe: %s", url, v)
		}
		links := eval[[]string](t, tab, `Array.from(document.querySelectorAll("a[href]"), a => a.href).filter(h => h.startsWith(location.origin) && h.split("#")[0] !== location.href)`)
		if len(links) < 5 {
			t.Errorf("%s: only %d links on the page", p, len(links))
		}
		for _, l := range links {
			l = strings.SplitN(l, "#", 2)[0]
			resp, err := http.Get(l)
			if err != nil {
				t.Errorf("%s: link %s: %v", p, l, err)
				continue
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("%s: link %s: HTTP %d", p, l, resp.StatusCode)
			}
		}
	}
}

// TestDarkScheme runs axe on a page of every kind with the dark colour
// scheme (TestLayout runs it with the light one), with a search's results
// and filters drawn.
func TestDarkScheme(t *testing.T) {
	t.Parallel()
	tab, base := servedSite(t)
	if err := webtest.EmulateMedia(tab.Ctx, "", "dark"); err != nil {
		t.Fatal(err)
	}
	paths := []string{"", "404.html", "en/cases/IL-0495/", "ko/cases/IL-0062/", "en/search/?q=kubernetes"}
	for _, p := range pageTypes {
		for _, lang := range langs {
			paths = append(paths, strings.ReplaceAll(p, "{lang}", lang))
		}
	}
	for _, p := range paths {
		tab.Open(t, base+"/"+p)
		if strings.Contains(p, "?q=") {
			searchTab{t, tab}.waitFor(`!!document.querySelector("[data-search-results] .search-result")`)
		}
		if bg := eval[string](t, tab, `getComputedStyle(document.body).backgroundColor`); bg == "rgb(255, 255, 255)" {
			t.Fatalf("%s: the page is white in the dark scheme", p)
		}
		for _, v := range webtest.Axe(t, tab.Ctx) {
			t.Errorf("%s (dark): axe: %s", p, v)
		}
	}
}

// TestPrint lays a case page out for paper: no navigation, search or table
// of contents, and the address of every source written out.
func TestPrint(t *testing.T) {
	t.Parallel()
	tab, base := servedSite(t)
	if err := webtest.EmulateMedia(tab.Ctx, "print", ""); err != nil {
		t.Fatal(err)
	}
	tab.Open(t, base+"/en/cases/IL-0106/")
	if w := eval[int](t, tab, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); w > 0 {
		t.Errorf("the printed page is %d px wider than the paper", w)
	}
	for _, sel := range []string{".site-header", ".site-footer", "form.search", ".case-toc", ".crumbs"} {
		if eval[bool](t, tab, `Array.from(document.querySelectorAll(`+jsString(sel)+`)).some(e => e.getBoundingClientRect().height > 0)`) {
			t.Errorf("%s is printed", sel)
		}
	}
	// A source's address is on the page under its link; any other link's
	// address is printed after it.
	printed := strings.Join(strings.Fields(eval[string](t, tab, `document.querySelector("#sources").innerText`)), "")
	for _, u := range eval[[]string](t, tab, `Array.from(document.querySelectorAll(".sources li > a:first-child"), a => a.getAttribute("href"))`) {
		if !strings.Contains(printed, u) {
			t.Errorf("source %s is not printed in full:\n%s", u, printed)
		}
	}
	for _, u := range eval[[]string](t, tab, `Array.from(document.querySelectorAll(".case a[href^=http]:not(#sources a, .review a), .sources li > a:nth-of-type(2)"), a => getComputedStyle(a, "::after").content.includes(a.getAttribute("href")) ? "" : a.getAttribute("href")).filter(Boolean)`) {
		t.Errorf("the address of link %s is not printed", u)
	}
}
