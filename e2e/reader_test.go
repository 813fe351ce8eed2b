package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"incidentlib/internal/webtest"
)

// TestReading opens the shipped site as a reader on a phone (390 px) does
// and checks what issue 27 asked for: a topic page's introduction and
// statistics come before its cases; ten items of the Korean case list fit
// in two phone screens and open in place to the digest; the header has a
// search box on every page that has none of its own, and every link of the
// navigation is on screen; code is in a monospace font on Korean pages; a
// missing Korean page answers with the Korean 404 page.
func TestReading(t *testing.T) {
	t.Parallel()
	tab, base := servedSite(t)
	vp := webtest.Phone
	if err := chromedp.Do(tab.Ctx, chromedp.EmulateViewport(vp.Width, vp.Height, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)); err != nil {
		t.Fatal(err)
	}
	top := func(sel string) float64 {
		return eval[float64](t, tab, `(() => { const e = document.querySelector(`+jsString(sel)+`); return e ? e.getBoundingClientRect().top + scrollY : -1; })()`)
	}

	t.Run("topic order", func(t *testing.T) {
		for _, lang := range langs {
			tab.Open(t, base+"/"+lang+"/components/ingress/")
			intro, stats, card := top("main > .intro"), top("main > .stats"), top("main > .cards .card")
			if intro < 0 || stats < 0 || card < 0 {
				t.Fatalf("%s topic: intro at %.0f, stats at %.0f, first case at %.0f: a part is missing", lang, intro, stats, card)
			}
			if !(intro < stats && stats < card) {
				t.Errorf("%s topic at 390 px: intro at %.0f px, statistics at %.0f px, first case at %.0f px; want intro, then statistics, then cases", lang, intro, stats, card)
			}
		}
	})

	t.Run("compact list", func(t *testing.T) {
		tab.Open(t, base+"/ko/cases/")
		n := eval[float64](t, tab, `document.querySelectorAll("main > .cards .card").length`)
		if n != 10 {
			t.Fatalf("/ko/cases/ lists %.0f cases, want 10", n)
		}
		h := eval[float64](t, tab, `(() => { const c = document.querySelectorAll("main > .cards .card");
			return c[c.length - 1].getBoundingClientRect().bottom - c[0].getBoundingClientRect().top; })()`)
		if h > float64(2*vp.Height) {
			t.Errorf("ten items of /ko/cases/ take %.0f px at 390 px, more than two phone screens (%d px)", h, 2*vp.Height)
		}
		// A closed details element keeps its content laid out but not
		// rendered: checkVisibility says whether it shows.
		digest := `(() => { const d = document.querySelector("main > .cards .card details dl"); return d.checkVisibility() ? d.getBoundingClientRect().height : 0; })()`
		if d := eval[float64](t, tab, digest); d != 0 {
			t.Errorf("the first item's digest shows (%.0f px high) before it is opened", d)
		}
		ctx, cancel := context.WithTimeout(tab.Ctx, 10*time.Second)
		_, err := chromedp.Run(ctx, chromedp.Click(chromedp.CSS(`main > .cards .card summary`)))
		cancel()
		if err != nil {
			t.Fatalf("tap the first item's summary: %v", err)
		}
		if d := eval[float64](t, tab, digest); d < 200 {
			t.Errorf("the first item's digest is %.0f px high once opened, want it shown", d)
		}
		if !eval[bool](t, tab, `/\d/.test(document.querySelector("main > .cards .card details").textContent) && document.querySelectorAll("main > .cards .card details dt").length >= 6`) {
			t.Errorf("the opened item does not show the digest's sections")
		}
	})

	// On a phone, search is on screen in the header (or, on the pages
	// with a search box of their own, in the page, and only there), and
	// every navigation link is inside the window.
	t.Run("header", func(t *testing.T) {
		for _, lang := range langs {
			for _, p := range []string{"components/ingress/", "cases/IL-0495/", "about/", "", "search/", "cases/"} {
				url := base + "/" + lang + "/" + p
				tab.Open(t, url)
				boxes := eval[[]string](t, tab, `Array.from(document.querySelectorAll("input[type=search]")).filter(i => i.getBoundingClientRect().height > 0).map(i => i.id + " " + Math.round(i.getBoundingClientRect().top))`)
				if len(boxes) != 1 {
					t.Errorf("%s at 390 px: %d search boxes shown (%s), want one", url, len(boxes), strings.Join(boxes, ", "))
				}
				own := p == "" || p == "search/" || p == "cases/"
				if !own && (len(boxes) == 0 || !strings.HasPrefix(boxes[0], "q-header ")) {
					t.Errorf("%s at 390 px: no search box in the header (%s)", url, strings.Join(boxes, ", "))
				}
				for _, b := range boxes {
					var id string
					var y float64
					if _, err := fmt.Sscan(b, &id, &y); err == nil && y > float64(vp.Height) {
						t.Errorf("%s at 390 px: the search box %s is below the first screen (%.0f px)", url, id, y)
					}
				}
				off := eval[[]string](t, tab, `Array.from(document.querySelectorAll(".site-header .nav a")).filter(a => {
					const r = a.getBoundingClientRect(); return r.width === 0 || r.left < 0 || r.right > document.documentElement.clientWidth; }).map(a => a.textContent)`)
				if len(off) > 0 {
					t.Errorf("%s at 390 px: navigation links off screen: %s", url, strings.Join(off, ", "))
				}
			}
		}
	})

	// A search box on a phone keeps its buttons on its own row: Search on
	// the home page, Filters on the list and search pages (where results
	// follow every key), none of them under the box.
	t.Run("search row", func(t *testing.T) {
		for _, tt := range []struct{ path, button string }{
			{"/en/", "button[type=submit]"},
			{"/ko/", "button[type=submit]"},
			{"/en/cases/", "[data-search-fold]"},
			{"/ko/cases/", "[data-search-fold]"},
			{"/en/search/", "[data-search-fold]"},
			{"/en/components/ingress/", "button[type=submit]"},
			{"/ko/components/ingress/", "button[type=submit]"},
		} {
			tab.Open(t, base+tt.path)
			s := searchTab{t, tab}
			s.waitFor(`(() => { const b = document.querySelector("main form[role=search] ` + tt.button + `, .site-header form[role=search] ` + tt.button + `"); return !!b && b.getBoundingClientRect().height > 0; })()`)
			got := eval[[]string](t, tab, `(() => {
				const f = Array.from(document.querySelectorAll("form[role=search]")).find(f => f.querySelector("input[type=search]").getBoundingClientRect().height > 0);
				const box = f.querySelector("input[type=search]").getBoundingClientRect();
				return Array.from(f.querySelectorAll(":scope > button")).filter(b => b.getBoundingClientRect().height > 0).map(b => {
					const r = b.getBoundingClientRect();
					return b.textContent + " " + (r.top < box.bottom && r.bottom > box.top && r.right <= document.documentElement.clientWidth && r.height < 2 * parseFloat(getComputedStyle(b).lineHeight) ? "beside" : "under");
				});
			})()`)
			if len(got) != 1 {
				t.Errorf("%s at 390 px: the search box shows the buttons %q, want one (Search or Filters)", tt.path, got)
			}
			for _, g := range got {
				if !strings.HasSuffix(g, " beside") {
					t.Errorf("%s at 390 px: the button %q is not on the search box's row, or wraps its text", tt.path, g)
				}
			}
		}
	})

	t.Run("switch keeps the query", func(t *testing.T) {
		for _, lang := range langs {
			tab.Open(t, base+"/"+lang+"/search/?q=k8s")
			s := searchTab{t, tab}
			s.waitFor(`document.querySelector(".site-header a.lang").getAttribute("href").endsWith("?q=k8s")`)
			s.waitFor(`document.querySelectorAll("[data-search-results] .search-result").length > 0`) // k8s finds Kubernetes
		}
	})

	t.Run("Korean code", func(t *testing.T) {
		for _, p := range []string{"/ko/api/", "/ko/contribute/"} {
			tab.Open(t, base+p)
			fonts := eval[[]string](t, tab, `Array.from(document.querySelectorAll("main code, main pre")).map(e => getComputedStyle(e).fontFamily)`)
			if len(fonts) == 0 {
				t.Errorf("%s: no code on the page to check", p)
			}
			for _, f := range fonts {
				if !strings.HasSuffix(strings.TrimSpace(f), "monospace") {
					t.Errorf("%s: code in %q, want the monospace stack", p, f)
					break
				}
			}
		}
	})

	t.Run("Korean 404", func(t *testing.T) {
		for _, tt := range []struct{ path, lang, h1 string }{
			{"/ko/cases/IL-9999/", "ko", "페이지를 찾을 수 없습니다"},
			{"/ko/components/nothing/page/3/", "ko", "페이지를 찾을 수 없습니다"},
			{"/en/cases/IL-9999/", "en", "Page not found"},
		} {
			tab.Open(t, base+tt.path)
			lang := eval[string](t, tab, `document.documentElement.lang`)
			h1 := eval[string](t, tab, `document.querySelector("main h1").textContent`)
			if lang != tt.lang || h1 != tt.h1 {
				t.Errorf("%s: the 404 page is lang=%q with heading %q, want lang=%q and %q", tt.path, lang, h1, tt.lang, tt.h1)
			}
			if n := eval[float64](t, tab, `document.querySelectorAll(".site-header input[type=search]").length`); n != 1 {
				t.Errorf("%s: the 404 page has %.0f search boxes in its header, want 1", tt.path, n)
			}
		}
	})
	if err := chromedp.Do(tab.Ctx, chromedp.ResetViewport()); err != nil {
		t.Fatal(err)
	}
}
