package webtest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// Scoped is what axe-core said about the elements inside one selector of
// a page (AxeWithin): the rules that failed, and how many elements each
// rule that passed looked at, so that a test can tell a clean part from
// one axe never reached.
type Scoped struct {
	Elements   int            // elements matching the selector
	Violations []Violation    // rules that failed inside them
	Passed     map[string]int // rule id → elements inside them that passed it
	Incomplete []string       // what axe could not decide (left for a person): "rule selector: why", one per element
}

// axeWithin runs axe on the elements matching a selector only (axe's
// context include), with every result type, so that the passes count.
const axeWithin = `(async () => {
  const sel = %s;
  const n = document.querySelectorAll(sel).length;
  if (n === 0) return {elements: 0, violations: [], passed: {}, incomplete: []};
  const r = await axe.run({include: [[sel]]}, {runOnly: {type: "tag", values: %s}, preload: false});
  const passed = {};
  for (const p of r.passes) passed[p.id] = p.nodes.length;
  return {
    elements: n,
    violations: r.violations.map(v => ({
      id: v.id, impact: v.impact || "", help: v.help, nodes: v.nodes.length,
      targets: v.nodes.slice(0, %d).map(n => n.target.map(String).join(" ")),
    })),
    passed,
    incomplete: r.incomplete.flatMap(v => v.nodes.map(n => v.id + " " + n.target.map(String).join(" ") + ": " + ((n.any[0] || n.all[0] || n.none[0] || {}).message || v.help))),
  };
})()`

type axeScoped struct {
	Elements   int            `json:"elements"`
	Violations []axeViolation `json:"violations"`
	Passed     map[string]int `json:"passed"`
	Incomplete []string       `json:"incomplete"`
}

// AxeWithin runs axe-core on the elements of the page open in ctx's tab
// that match selector, by themselves, with the given rule tags (axeTags,
// WCAG 2.0 and 2.1 A and AA, when none are given).
func AxeWithin(t testing.TB, ctx context.Context, selector string, tags ...string) Scoped {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, AxeTimeout)
	defer cancel()
	injectAxe(t, ctx)
	if len(tags) == 0 {
		tags = axeTags
	}
	sel, _ := json.Marshal(selector)
	tagList := `["` + strings.Join(tags, `","`) + `"]`
	script := fmt.Sprintf(axeWithin, sel, tagList, maxTargets)
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[axeScoped](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe: run within %s: %v", selector, err)
	}
	out := Scoped{Elements: raw.Elements, Passed: raw.Passed, Incomplete: raw.Incomplete}
	for _, v := range raw.Violations {
		out.Violations = append(out.Violations, Violation(v))
	}
	return out
}
