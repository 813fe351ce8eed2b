package site

import (
	"bytes"
	"testing"
	"unsafe"

	"incidentlib"
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
