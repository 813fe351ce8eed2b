package webtest

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/chromedp"
)

// markHangul copies the Hangul letters of the first element matching the
// selector into a new span at the end of that element. The span inherits
// the element's font, weight and lang, and holds nothing but Hangul, so the
// fonts Chromium reports for it are exactly the fonts that drew the Hangul
// (the element's own text would mix in the font of Latin letters and
// spaces). Reading its box forces a layout: Chromium reports fonts only for
// text that has been laid out. It returns "" when the element exists and the span was added,
// else why not.
const markHangul = `(() => {
  const el = document.querySelector(%s);
  if (!el) return "no element matches the selector";
  const hangul = (el.textContent.match(/[\u1100-\u11FF\u3130-\u318F\uA960-\uA97F\uAC00-\uD7AF\uD7B0-\uD7FF]/g) || []).join("");
  if (!hangul) return "the element has no Hangul text: " + JSON.stringify(el.textContent.slice(0, 80));
  const span = document.createElement("span");
  span.setAttribute("data-webtest-hangul", "");
  span.textContent = hangul;
  el.appendChild(span);
  span.getBoundingClientRect();
  return "";
})()`

const unmarkHangul = `document.querySelectorAll("[data-webtest-hangul]").forEach(e => e.remove())`

// HangulFont returns the platform font family (as fontconfig names it, e.g.
// "Noto Sans CJK KR") that Chromium used to draw the Hangul text of the first
// element matching selector on the page of ctx. When several fonts shared
// the work they are all named, the one that drew most glyphs first, joined
// by ", ". The page is left as it was.
func HangulFont(t testing.TB, ctx context.Context, selector string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, PageTimeout)
	defer cancel()
	sel, _ := json.Marshal(selector)
	why, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(markHangul, sel)))
	if err != nil {
		t.Fatalf("hangul font of %q: %v", selector, err)
	}
	if why != "" {
		t.Fatalf("hangul font of %q: %s", selector, why)
	}
	defer chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](unmarkHangul))
	ids, err := chromedp.Run(ctx, chromedp.QueryNodeIDs(chromedp.CSS("[data-webtest-hangul]")))
	if err != nil || len(ids) == 0 {
		t.Fatalf("hangul font of %q: find the marker span: %v", selector, err)
	}
	// Chromium answers from the last layout and does not lay the page out
	// for this call; a busy renderer can still be behind, so ask again a
	// few times before concluding that the text is not drawn.
	var fonts []*css.PlatformFontUsage
	for try := 0; try < 20 && len(fonts) == 0; try++ {
		if try > 0 {
			time.Sleep(50 * time.Millisecond)
		}
		res, err := chromedp.Call(ctx, css.GetPlatformFontsForNode, css.GetPlatformFontsForNodeParams{NodeID: ids[0]})
		if err != nil {
			t.Fatalf("hangul font of %q: CSS.getPlatformFontsForNode: %v", selector, err)
		}
		fonts = res.Fonts
	}
	if len(fonts) == 0 {
		t.Fatalf("hangul font of %q: Chromium reports no font for the Hangul text (is it hidden?)", selector)
	}
	sort.SliceStable(fonts, func(i, j int) bool { return fonts[i].GlyphCount > fonts[j].GlyphCount })
	var names []string
	for _, f := range fonts {
		names = append(names, f.FamilyName)
	}
	return strings.Join(names, ", ")
}
