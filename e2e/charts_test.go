package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"incidentlib/internal/webtest"
)

// chartPages are the pages that draw the build's SVG charts: the home
// page (every case) and topic pages of a few sizes.
var chartPages = []string{"{lang}/", "{lang}/components/ingress/", "{lang}/root-causes/software-bug/"}

// chartContrast measures what axe leaves undecided on the charts: the bar
// labels are laid over the drawing, so axe cannot tell their background.
// Each label and each text of a drawing is measured against the page's
// background and, for a bar label, the bar's fill under it (text, 4.5:1);
// each mark of a distribution against the page (a graphic, 3:1).
const chartContrast = `(() => {
  const rgb = s => {
    const m = /rgba?\(([^)]+)\)/.exec(s || "");
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  };
  const over = (c, bg, alpha) => {
    const a = c.a * (alpha === undefined ? 1 : alpha);
    return {r: c.r * a + bg.r * (1 - a), g: c.g * a + bg.g * (1 - a), b: c.b * a + bg.b * (1 - a), a: 1};
  };
  const lum = c => {
    const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const bgOf = e => {
    for (; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) return c;
    }
    return {r: 255, g: 255, b: 255, a: 1};
  };
  const failed = [];
  let checked = 0, worstText = 99, worstMark = 99;
  const check = (what, fg, bg, min) => {
    const r = ratio(fg, bg);
    checked++;
    if (min > 4) worstText = Math.min(worstText, r); else worstMark = Math.min(worstMark, r);
    if (r < min) failed.push(what + ": " + r.toFixed(2) + ":1, want " + min + ":1");
  };
  for (const fig of document.querySelectorAll("figure.chart")) {
    const page = bgOf(fig);
    const rect = fig.querySelector("svg:not(.dist) rect");
    const bar = rect ? over(rgb(getComputedStyle(rect).fill), page, Number(getComputedStyle(rect).fillOpacity)) : null;
    for (const t of fig.querySelectorAll("figcaption, figcaption small, .bars a, .bars span, svg text")) {
      const cs = getComputedStyle(t);
      const c = t instanceof SVGElement ? over(rgb(cs.fill), page, Number(cs.fillOpacity)) : over(rgb(cs.color), page);
      const name = t.tagName.toLowerCase() + " " + (t.textContent || "").trim().slice(0, 30);
      check(name + " on the page", c, page, 4.5);
      if (bar && t.closest(".bars")) check(name + " on its bar", c, bar, 4.5);
    }
    for (const m of fig.querySelectorAll("svg.dist circle")) {
      const cs = getComputedStyle(m);
      check("mark " + (m.parentElement.getAttribute("aria-label") || "").slice(0, 30), over(rgb(cs.fill), page, Number(cs.fillOpacity)), page, 3);
    }
  }
  return JSON.stringify({checked, worstText, worstMark, failed: failed.slice(0, 8)});
})()`

// contrastResult is what chartContrast returns.
type contrastResult struct {
	Checked   int      `json:"checked"`
	WorstText float64  `json:"worstText"`
	WorstMark float64  `json:"worstMark"`
	Failed    []string `json:"failed"`
}

// TestChartsAxe runs axe-core on the charts by themselves (the duration
// distributions and the bar charts, years among them, each a figure.chart)
// in both languages and both colour schemes, with the WCAG rules and
// axe's best practices: none may fail, and axe must have looked at every
// link of a chart, so that a chart it cannot reach does not pass unseen.
// What axe leaves undecided (the contrast of labels laid over the
// drawing) is measured by chartContrast.
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
				years := eval[int](t, tab, `Array.from(document.querySelectorAll("figure.chart ul.bars a[href]")).filter(a => /(^|\/)years\/|[?&]years=/.test(a.getAttribute("href"))).length`)
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
				var c contrastResult
				if err := json.Unmarshal([]byte(eval[string](t, tab, chartContrast)), &c); err != nil {
					t.Fatal(err)
				}
				for _, f := range c.Failed {
					t.Errorf("%s (%s): contrast: %s", u, scheme, f)
				}
				if c.Checked < links {
					t.Errorf("%s (%s): contrast measured on %d texts and marks, fewer than the %d links", u, scheme, c.Checked, links)
				}
				undecided := 0
				for _, x := range r.Incomplete {
					if !strings.HasPrefix(x, "color-contrast ") {
						t.Errorf("%s (%s): axe could not decide: %s", u, scheme, x)
					}
					undecided++
				}
				t.Logf("%s (%s): %d charts, %d links; axe: %d rules passed, %d contrasts undecided; measured %d, worst text %.2f:1, worst mark %.2f:1",
					u, scheme, r.Elements, links, len(r.Passed), undecided, c.Checked, c.WorstText, c.WorstMark)
			}
		}
	}
}
