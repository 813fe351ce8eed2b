package serve

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"incidentlib"
	"incidentlib/internal/repotest"
	"incidentlib/internal/webtest"
)

// TestBrowserReloads opens a case page in Chromium, saves an edit and
// checks that the page reloads itself with the new title, then breaks the
// file and sees the error page come, and go again after the fix, without
// anybody touching the browser.
func TestBrowserReloads(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium")
	}
	dir := repotest.ContentDir(t)
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: dir})
	tab := webtest.Browser(t)
	tab.Open(t, r.url+"/en/cases/IL-0495/")
	if p := tab.Problems(); len(p) > 0 {
		t.Fatalf("problems on the page: %v", p)
	}
	// A property set now survives only while the page is not reloaded.
	if _, err := chromedp.Run(tab.Ctx, chromedp.Evaluate[int](`window.incidentlibMark = 1`)); err != nil {
		t.Fatal(err)
	}
	waitTitle := func(what, want string) {
		t.Helper()
		var title string
		for t0 := time.Now(); ; time.Sleep(20 * time.Millisecond) {
			got, err := chromedp.Run(tab.Ctx, chromedp.Evaluate[string](`document.title`))
			if err == nil {
				title = got
			}
			if strings.Contains(title, want) {
				return
			}
			if time.Since(t0) > 10*time.Second {
				t.Fatalf("%s: the page title is %q, want it to contain %q", what, title, want)
			}
		}
	}
	file := filepath.Join(dir, "cases", "IL-0495.json")
	editCase(t, file, func(c map[string]any) { c["title"].(map[string]any)["en"] = "Reloaded by the preview" })
	waitTitle("after the edit", "Reloaded by the preview")
	if mark, err := chromedp.Run(tab.Ctx, chromedp.Evaluate[bool](`window.incidentlibMark === 1`)); err != nil || mark {
		t.Errorf("the new title came without a reload (mark kept: %v, %v)", mark, err)
	}
	editCase(t, file, func(c map[string]any) { c["components"] = []any{"ingres"} })
	waitTitle("after breaking the file", "problem")
	editCase(t, file, func(c map[string]any) { c["components"] = []any{"ingress"} })
	waitTitle("after the fix", "Reloaded by the preview")
	// All of it ran under the site's Content-Security-Policy, the reload
	// script and the error page included, and broke none of it.
	for _, p := range tab.Problems() {
		if strings.Contains(p, "CSP") || strings.Contains(p, "Content Security Policy") {
			t.Errorf("policy violated: %s", p)
		}
	}
	if resp, err := http.Get(r.url + "/en/"); err != nil || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Errorf("the preview does not send the policy (%v)", err)
	} else {
		resp.Body.Close()
	}
}
