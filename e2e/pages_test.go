package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"incidentlib/internal/webtest"
)

// langs are the site's languages; every case has a page in each.
var langs = []string{"en", "ko"}

// pagesBudget bounds the time TestCasePages spends opening pages.
const pagesBudget = 600 * time.Second

// TestCasePages opens every case page of both languages, from disk and over
// HTTP, in one browser tab, and checks the title, the language, the font of
// Korean text, accessibility and that nothing failed to load.
func TestCasePages(t *testing.T) {
	t.Parallel()
	public := site(t)
	all := cases(t)
	tab := webtest.Browser(t)
	base := webtest.Serve(t, public)

	// A page that never finishes loading costs webtest.PageTimeout; a site
	// where many do would otherwise take the run far past its few minutes.
	start := time.Now()
	checked, total := 0, len(all)*len(langs)*2
	defer func() {
		if checked < total {
			t.Errorf("gave up after %v: checked %d of %d case pages; the others were not opened", pagesBudget, checked, total)
		}
	}()

	for _, c := range all {
		for _, lang := range langs {
			// From disk the offline build is what people open; over HTTP the
			// CDN build with its integrity attributes.
			file := filepath.Join(offline(t), lang, "cases", c.ID, "index.html")
			urls := []struct{ mode, url string }{
				{"file", webtest.FileURL(t, file)},
				{"http", base + "/" + lang + "/cases/" + c.ID + "/"},
			}
			for _, u := range urls {
				if time.Since(start) > pagesBudget {
					return
				}
				checked++
				t.Run(c.ID+"/"+lang+"/"+u.mode, func(t *testing.T) {
					checkCasePage(t, tab, u.url, lang, c)
				})
			}
		}
	}
}

func checkCasePage(t *testing.T, tab *webtest.Tab, url, lang string, c caseInfo) {
	tab.Open(t, url)

	h1, err := chromedp.Run(tab.Ctx, chromedp.Evaluate[*string](`document.querySelector("h1")?.textContent ?? null`))
	want := normSpace(c.Title[lang])
	switch {
	case err != nil:
		t.Errorf("%s: read the h1: %v", url, err)
	case h1 == nil:
		t.Errorf("%s: no <h1>", url)
	case normSpace(*h1) == "":
		t.Errorf("%s: the <h1> is empty", url)
	case want == "":
		t.Errorf("%s: the case JSON has no %s title", url, lang)
	case normSpace(*h1) != want:
		t.Errorf("%s: <h1> is\n%q\nwant the case's %s title\n%q", url, normSpace(*h1), lang, want)
	}

	font := ""
	if h1 != nil {
		font = "h1"
	}
	checkOpenPage(t, tab, url, lang, font)
}

// checkOpenPage checks the page open in tab as every page must be: its
// <html lang>, Hangul drawn with a CJK font inside fontSel on Korean pages
// (skipped when fontSel is empty), no axe violation and nothing failed in
// the browser's log.
func checkOpenPage(t *testing.T, tab *webtest.Tab, url, lang, fontSel string) {
	t.Helper()
	htmlLang, err := chromedp.Run(tab.Ctx, chromedp.Evaluate[string](`document.documentElement.getAttribute("lang") || ""`))
	if err != nil {
		t.Errorf("%s: read <html lang>: %v", url, err)
	} else if htmlLang != lang {
		t.Errorf("%s: <html lang=%q>, want %q", url, htmlLang, lang)
	}
	if lang == "ko" && fontSel != "" {
		if font := webtest.HangulFont(t, tab.Ctx, fontSel); !strings.Contains(font, "CJK") {
			t.Errorf("%s: the Hangul of %s is drawn with %q, want a CJK font (Noto Sans/Serif CJK)", url, fontSel, font)
		}
	}
	for _, v := range webtest.Axe(t, tab.Ctx) {
		t.Errorf("%s: axe: %s", url, v)
	}
	for _, p := range tab.Problems() {
		t.Errorf("%s: %s", url, p)
	}
}
