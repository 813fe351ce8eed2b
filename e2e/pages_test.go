package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"incidentlib/internal/webtest"
)

// langs are the site's languages; every case has a page in each.
var langs = []string{"en", "ko"}

// fileSample are the cases TestCasePages also opens from disk, in the
// offline build: what differs there is the template's (links that name
// index.html, no integrity attributes), not the case's, so a few do: the
// first and the last by id, one without a date and the seed case IL-0495.
var fileSample = []string{"IL-0011", "IL-0081", "IL-0495", "IL-0550"}

// TestCasePages opens every case page of both languages over HTTP at the
// narrowest phone width, in one browser tab, and checks the title, the
// language, the font of Korean text, accessibility, that nothing failed to
// load and that nothing scrolls sideways (a case's long word or table is
// what makes a page too wide, so every case is laid out here; the other
// kinds of page at three widths in TestLayout). A sample of the cases is
// also opened from disk. The titles of every page are checked without a
// browser first (TestCaseTitles).
func TestCasePages(t *testing.T) {
	t.Parallel()
	public := site(t)
	all := cases(t)
	tab := webtest.Browser(t)
	base := webtest.Serve(t, public)
	narrow := screens[0]
	if err := chromedp.Do(tab.Ctx, chromedp.EmulateViewport(narrow.vp.Width, narrow.vp.Height, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)); err != nil {
		t.Fatal(err)
	}
	for _, c := range all {
		for _, lang := range langs {
			t.Run(c.ID+"/"+lang+"/http", func(t *testing.T) {
				url := base + "/" + lang + "/cases/" + c.ID + "/"
				checkCasePage(t, tab, url, lang, c)
				checkLayout(t, tab, lang+"/cases/"+c.ID+"/", narrow.name)
			})
		}
	}
	if err := chromedp.Do(tab.Ctx, chromedp.ResetViewport()); err != nil {
		t.Fatal(err)
	}
	byID := map[string]caseInfo{}
	for _, c := range all {
		byID[c.ID] = c
	}
	for _, id := range fileSample {
		c, ok := byID[id]
		if !ok {
			t.Errorf("sample case %s is not in the content; pick another", id)
			continue
		}
		for _, lang := range langs {
			t.Run(id+"/"+lang+"/file", func(t *testing.T) {
				file := filepath.Join(offline(t), lang, "cases", id, "index.html")
				checkCasePage(t, tab, webtest.FileURL(t, file), lang, c)
			})
		}
	}
}

// TestCaseTitles reads every case page of both languages, of the shipped
// and the offline build, without a browser: its <h1> is the case's title.
func TestCaseTitles(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{site(t), offline(t)} {
		for _, c := range cases(t) {
			for _, lang := range langs {
				file := filepath.Join(dir, lang, "cases", c.ID, "index.html")
				b, err := os.ReadFile(file)
				if err != nil {
					t.Error(err)
					continue
				}
				want := normSpace(c.Title[lang])
				h1, ok := webtest.ElementText(b, "h1")
				switch {
				case !ok:
					t.Errorf("%s: no <h1>", file)
				case want == "":
					t.Errorf("%s: the case JSON has no %s title", file, lang)
				case normSpace(h1) != want:
					t.Errorf("%s: <h1> is\n%q\nwant the case's %s title\n%q", file, normSpace(h1), lang, want)
				}
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
