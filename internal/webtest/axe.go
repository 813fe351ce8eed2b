package webtest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// axeTags are the rule sets Axe runs: WCAG 2.0 and 2.1, levels A and AA.
var axeTags = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa"}

// Violation is one axe-core rule that failed on the page.
type Violation struct {
	ID      string   // rule id, e.g. "image-alt"
	Impact  string   // minor, moderate, serious or critical
	Help    string   // one-line description of the rule
	Nodes   int      // how many elements fail it
	Targets []string // CSS selectors of the first few failing elements
}

func (v Violation) String() string {
	return fmt.Sprintf("%s (%s): %s; %d element(s): %s", v.ID, v.Impact, v.Help, v.Nodes, strings.Join(v.Targets, ", "))
}

// maxTargets is how many failing elements a Violation names.
const maxTargets = 3

// axeRun injects axe-core unless the page has it already, runs it on the
// whole document and returns the violations in a small shape (axe's own
// result objects are large). preload is off because axe would otherwise
// fetch every stylesheet again with XMLHttpRequest, which a file:// page
// refuses (origin null): the refusals would be logged as page errors that
// the page itself never caused.
const axeRun = `(async () => {
  const r = await axe.run(document, {runOnly: {type: "tag", values: %s}, resultTypes: ["violations"], preload: false});
  return r.violations.map(v => ({
    id: v.id, impact: v.impact || "", help: v.help, nodes: v.nodes.length,
    targets: v.nodes.slice(0, %d).map(n => n.target.map(String).join(" ")),
  }));
})()`

type axeViolation struct {
	ID      string   `json:"id"`
	Impact  string   `json:"impact"`
	Help    string   `json:"help"`
	Nodes   int      `json:"nodes"`
	Targets []string `json:"targets"`
}

// AxeTimeout bounds one axe run. Axe walks the whole page in the page's one
// thread, and one run of TestDarkScheme took over 30 seconds on a 2-core
// machine with a load of 20, so it gets longer than a page load does; a
// hung page still ends the test.
const AxeTimeout = 3 * time.Minute

// injectAxe puts axe-core (node_modules/axe-core/axe.min.js) into the page
// open in ctx's tab, unless it is there already.
func injectAxe(t testing.TB, ctx context.Context) {
	t.Helper()
	src, err := os.ReadFile(tool(t, "node_modules/axe-core/axe.min.js", "axe-core"))
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof axe === "object"`))
	if err != nil {
		t.Fatalf("axe: look for axe in the page: %v", err)
	}
	if !loaded {
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](string(src))); err != nil {
			t.Fatalf("axe: inject axe.min.js: %v", err)
		}
	}
}

// Axe runs axe-core (node_modules/axe-core/axe.min.js) on the page loaded in
// the tab of ctx with axeTags and returns its violations; none means the page
// passed.
func Axe(t testing.TB, ctx context.Context) []Violation {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, AxeTimeout)
	defer cancel()
	page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
	injectAxe(t, ctx)
	tags := `["` + strings.Join(axeTags, `","`) + `"]`
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]axeViolation](fmt.Sprintf(axeRun, tags, maxTargets), chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe: run on %s: %v", page, err)
	}
	out := make([]Violation, len(raw))
	for i, v := range raw {
		out[i] = Violation(v)
	}
	return out
}
