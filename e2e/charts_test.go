package e2e

import (
	"strings"
	"testing"

	"incidentlib/internal/webtest"
)

// chartPages are the pages that draw the build's SVG charts: the home
// page (every case) and topic pages of a few sizes.
var chartPages = []string{"{lang}/", "{lang}/components/ingress/", "{lang}/root-causes/software-bug/"}

// TestChartsAxe runs axe-core on the charts by themselves (the duration
// distributions and the bar charts, years among them, each a figure.chart)
// in both languages and both colour schemes, with the WCAG rules and
// axe's best practices: none may fail, and axe must have looked at every
// link of a chart, so that a chart it cannot reach does not pass unseen.
func TestChartsAxe(t *testing.T) {
	t.Parallel()
	tab, base := servedSite(t)
	tags := []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"}
	for _, scheme := range []string{"light", "dark"} {
		if err := webtest.EmulateMedia(tab.Ctx, "", scheme); err != nil {
			t.Fatal(err)
		}
		for _, p := range chartPages {
			for _, lang := range langs {
				u := strings.ReplaceAll(p, "{lang}", lang)
				tab.Open(t, base+"/"+u)
				dists := eval[int](t, tab, `document.querySelectorAll("figure.dist-chart svg").length`)
				years := eval[int](t, tab, `Array.from(document.querySelectorAll("figure.chart ul.bars a[href]")).filter(a => /\/years\/|[?&]years=/.test(a.getAttribute("href"))).length`)
				links := eval[int](t, tab, `document.querySelectorAll("figure.chart a[href]").length`)
				if dists == 0 || years == 0 {
					t.Errorf("%s: %d distribution charts and %d year bars; want both", u, dists, years)
				}
				r := webtest.AxeWithin(t, tab.Ctx, "figure.chart", tags...)
				for _, v := range r.Violations {
					t.Errorf("%s (%s): axe, charts only: %s", u, scheme, v)
				}
				if r.Passed["link-name"] < links {
					t.Errorf("%s (%s): axe checked the names of %d chart links of %d", u, scheme, r.Passed["link-name"], links)
				}
				t.Logf("%s (%s): %d charts, %d links; rules passed %v; undecided %v", u, scheme, r.Elements, links, r.Passed, r.Incomplete)
			}
		}
	}
}
