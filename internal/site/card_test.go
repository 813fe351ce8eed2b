package site

import (
	"bytes"
	"html"
	"testing"
	"unsafe"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
	"incidentlib/internal/library"
)

// TestCardFromCaseView holds the card a case page renders from its own
// view (RenderCase, as a build does before the lists) to the card rendered
// alone, for every case of the engines' libraries (hostile text included)
// in both languages, and checks that the page's texts are indeed taken
// rather than rendered again.
func TestCardFromCaseView(t *testing.T) {
	for _, l := range engineLibraries(t) {
		t.Run(l.name, func(t *testing.T) {
			alone, err := New(library.Derive(l.lib), Options{Theme: shippedTheme(t)})
			if err != nil {
				t.Fatal(err)
			}
			fromPage, err := New(library.Derive(l.lib), Options{Theme: alone.theme})
			if err != nil {
				t.Fatal(err)
			}
			taken := 0
			var page, twin bytes.Buffer
			for _, j := range fromPage.Jobs() {
				if j.Kind != KindCase {
					continue
				}
				page.Reset()
				twin.Reset()
				if err := fromPage.RenderCase(j, &page, &twin); err != nil {
					t.Fatal(err)
				}
				got, err := cards{fromPage}.cardHTML(j.Lang, j.Case)
				if err != nil {
					t.Fatal(err)
				}
				want, err := cards{alone}.cardHTML(j.Lang, j.Case)
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("%s %s: the card from the case page differs from the card alone at %s", j.Case.ID, j.Lang, firstDiff(string(got), string(want)))
				}
				v, err := views{fromPage}.caseView(j, true)
				if err != nil {
					t.Fatal(err)
				}
				cd := (&pageView{Lang: j.Lang, s: fromPage}).card(j.Case, v)
				taken += sameText(cd.Trigger, v.Trigger) + sameText(cd.Detection, v.Detection)
				for i := range cd.Remediation {
					taken += sameText(cd.Remediation[i], v.Remediation[i])
				}
			}
			if taken == 0 {
				t.Error("no card took a text from its case page's view")
			}
			t.Logf("texts taken from the case page: %d", taken)
		})
	}
}

// sameText is 1 when a and b are the same rendered text, the very string.
func sameText(a, b localized) int {
	if a.HTML != "" && unsafe.StringData(string(a.HTML)) == unsafe.StringData(string(b.HTML)) {
		return 1
	}
	return 0
}

func shippedTheme(t *testing.T) *Theme {
	t.Helper()
	th, err := LoadTheme(incidentlib.Templates(), incidentlib.Static())
	if err != nil {
		t.Fatal(err)
	}
	return th
}

// TestCardMarkupBudget holds the markup of the cards of a generated
// library to a budget: a card is on a dozen topic pages and on the case
// list, and at 1,000 cases the cards are most of the site's HTML. What a
// card's markup costs beyond the text it shows (the sum over all cards in
// a language, the text as UTF-8 with entities read) stays under
// cardMarkup of its bytes. With "Status unknown" on every action item
// that gives none, the cards of this library were 42% markup in English
// and 40% in Korean (and 49% on a topic page with links from the site
// root); 2026-12 they are 36% and 35%.
func TestCardMarkupBudget(t *testing.T) {
	const cardMarkup = 0.40
	gen, list := cases.Load(gencases.MapFS(gencases.Options{N: 200, Seed: 5}))
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	s, err := New(library.Derive(gen), Options{Theme: shippedTheme(t)})
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range cases.Languages {
		var all, text int
		var page bytes.Buffer
		for _, c := range s.lib.Cases {
			h, err := cards{s}.cardHTML(lang, c)
			if err != nil {
				t.Fatal(err)
			}
			// As a topic page writes it: links from the page's folder.
			page.Reset()
			if err := writeLinks(&page, []byte(h), "../../../", "en/components/dns/"); err != nil {
				t.Fatal(err)
			}
			all += page.Len()
			text += len(html.UnescapeString(tagRe.ReplaceAllString(page.String(), "")))
		}
		if over := 1 - float64(text)/float64(all); over > cardMarkup {
			t.Errorf("%s: the cards are %.0f%% markup (%d bytes, %d of them text), over the budget of %.0f%%", lang, over*100, all, text, cardMarkup*100)
		} else {
			t.Logf("%s: the cards are %.1f%% markup (%d bytes, %d of them text)", lang, over*100, all, text)
		}
	}
}
