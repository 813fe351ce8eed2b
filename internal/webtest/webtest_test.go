package webtest

import (
	"bytes"
	"context"
	"image/png"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestHandler(t *testing.T) {
	base := Serve(t, "testdata/good")
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	tests := []struct {
		path     string
		status   int
		contains string // in the body, or in Location for a redirect
	}{
		{"/", 200, "A small, valid page"},
		{"/index.html", 200, "A small, valid page"},
		{"/ko/", 200, "로드 밸런서"},
		{"/ko", 301, "/ko/"},
		{"/style.css", 200, "font-family"},
		{"/nothing/", 404, "Not found"},
		{"/ko/missing.html", 404, "Not found"},
		{"/../webtest_test.go", 404, "Not found"},
	}
	for _, tt := range tests {
		resp, err := client.Get(base + tt.path)
		if err != nil {
			t.Errorf("GET %s: %v", tt.path, err)
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status {
			t.Errorf("GET %s: status %d, want %d", tt.path, resp.StatusCode, tt.status)
		}
		got := string(body)
		if tt.status == 301 {
			got = resp.Header.Get("Location")
		}
		if !strings.Contains(got, tt.contains) {
			t.Errorf("GET %s: %q does not contain %q", tt.path, got, tt.contains)
		}
	}
}

// TestHandlerHeaders: the headers of a site's _headers file are sent for
// the paths their block names, and only for those.
func TestHandlerHeaders(t *testing.T) {
	base := Serve(t, "testdata")
	for path, want := range map[string]string{"/csp/": "csp", "/csp/clean.html": "csp", "/csp/nothing": "csp", "/good/": "", "/cspx": ""} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("X-Test"); got != want {
			t.Errorf("GET %s: X-Test %q, want %q", path, got, want)
		}
		if csp := resp.Header.Get("Content-Security-Policy"); (csp != "") != (want != "") {
			t.Errorf("GET %s: Content-Security-Policy %q", path, csp)
		}
	}
}

func TestVNU(t *testing.T) {
	t.Parallel()
	Heavy(t, "runs the Nu checker in Java")
	if errs := VNU(t, "testdata/good"); len(errs) != 0 {
		t.Errorf("VNU(good) = %q, want no errors", errs)
	}
	errs := VNU(t, "testdata/bad")
	if len(errs) == 0 {
		t.Fatal("VNU(bad) found no errors; invalid.html has a div inside a p")
	}
	for _, e := range errs {
		if !strings.HasPrefix(e, "invalid.html:") {
			t.Errorf("VNU(bad): error outside invalid.html: %s", e)
		}
	}
	if !slices.ContainsFunc(errs, func(e string) bool { return strings.HasPrefix(e, "invalid.html:11:") }) {
		t.Errorf("VNU(bad) = %q, want an error on invalid.html line 11", errs)
	}
}

func TestHTMLValidate(t *testing.T) {
	t.Parallel()
	Heavy(t, "runs html-validate in node")
	if errs := HTMLValidate(t, "testdata/good"); len(errs) != 0 {
		t.Errorf("HTMLValidate(good) = %q, want no errors", errs)
	}
	errs := HTMLValidate(t, "testdata/bad")
	if !slices.ContainsFunc(errs, func(e string) bool { return strings.HasPrefix(e, "invalid.html:11:") }) {
		t.Errorf("HTMLValidate(bad) = %q, want an error on invalid.html line 11", errs)
	}
}

func TestLinks(t *testing.T) {
	t.Parallel()
	Heavy(t, "runs linkinator in node")
	if broken := Links(t, "testdata/good"); len(broken) != 0 {
		t.Errorf("Links(good) = %q, want none (the external link must be skipped)", broken)
	}
	if broken := Links(t, "testdata/bad"); !slices.Equal(broken, linkFixtureWant) {
		t.Errorf("Links(bad) =\n%q\nwant\n%q", broken, linkFixtureWant)
	}
	// linkinator and LocalLinks find the same broken links of every kind.
	dir, want := linkKindsSite(t)
	if got := Links(t, dir); !slices.Equal(got, want) {
		t.Errorf("Links =\n%q\nwant (as LocalLinks)\n%q", got, want)
	}
}

// TestBrowser runs every browser helper in one browser, as the e2e tests do.
func TestBrowser(t *testing.T) {
	Heavy(t, "starts Chromium")
	tab := Browser(t)
	base := Serve(t, "testdata")

	t.Run("flags", func(t *testing.T) {
		// What Chromium ended up with: Debian's wrapper script adds its own
		// defaults and headless mode adds more, so only check that ours are
		// all there, and log the rest for whoever wonders.
		tab.Open(t, "chrome://version")
		cmdline, err := chromedp.Run(tab.Ctx, chromedp.Text(chromedp.ID("command_line")))
		if err != nil {
			t.Fatal(err)
		}
		args := strings.Fields(cmdline)
		for _, f := range chromiumFlags {
			if !slices.Contains(args, "--"+f) {
				t.Errorf("Chromium did not get --%s; command line: %s", f, cmdline)
			}
		}
		t.Logf("Chromium's command line: %s", cmdline)
	})

	pages := []struct {
		name, url  string
		lang       string
		h1         string
		axe        []string // ids of the violations axe must report
		problems   []string // substrings, one per expected problem
		hangulFont bool
	}{
		{name: "en http", url: base + "/good/", lang: "en", h1: "A small, valid page"},
		{name: "ko http", url: base + "/good/ko/", lang: "ko", h1: "HubSpot 의 내부 로드 밸런서가 무너졌다", hangulFont: true},
		{name: "ko file", url: FileURL(t, "testdata/good/ko/index.html"), lang: "ko", h1: "HubSpot 의 내부 로드 밸런서가 무너졌다", hangulFont: true},
		{name: "axe violation", url: base + "/bad/a11y.html", lang: "en", h1: "A field with no label", axe: []string{"label"}},
		{name: "console http", url: base + "/bad/console.html", lang: "en", h1: "This page logs, throws and misses a file",
			problems: []string{"request failed: " + base + "/bad/missing.css: net::ERR_ABORTED (HTTP 404)", "console.error: deliberate console error", "uncaught exception at " + base + "/bad/console.html:15:7: Uncaught Error: deliberate exception"}},
		{name: "csp violation", url: base + "/csp/", lang: "en", h1: "Inline code under a policy",
			problems: []string{"CSP violation: script-src-elem blocked inline at " + base + "/csp/:11", "CSP violation: style-src-elem blocked inline at " + base + "/csp/:7"}},
		{name: "csp kept", url: base + "/csp/clean.html", lang: "en", h1: "No inline code"},
		{name: "console file", url: FileURL(t, "testdata/bad/console.html"), lang: "en", h1: "This page logs, throws and misses a file",
			problems: []string{"request failed: " + FileURL(t, "testdata/bad/missing.css") + ": net::ERR_FILE_NOT_FOUND", "console.error: deliberate console error", "uncaught exception"}},
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			tab.Open(t, p.url)
			h1, err := chromedp.Run(tab.Ctx, chromedp.TextContent(chromedp.CSS("h1")))
			if err != nil || h1 != p.h1 {
				t.Errorf("h1 = %q (%v), want %q", h1, err, p.h1)
			}
			lang, err := chromedp.Run(tab.Ctx, chromedp.Evaluate[string](`document.documentElement.lang`))
			if err != nil || lang != p.lang {
				t.Errorf("html lang = %q (%v), want %q", lang, err, p.lang)
			}
			var ids []string
			for _, v := range Axe(t, tab.Ctx) {
				ids = append(ids, v.ID)
				if len(v.Targets) == 0 || v.Help == "" {
					t.Errorf("axe violation without help or targets: %+v", v)
				}
			}
			if !slices.Equal(ids, p.axe) {
				t.Errorf("axe violations %q, want %q", ids, p.axe)
			}
			got := tab.Problems()
			for _, want := range p.problems {
				if !slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, want) }) {
					t.Errorf("problems lack %q; got:\n%s", want, strings.Join(got, "\n"))
				}
			}
			if len(p.problems) == 0 && len(got) != 0 {
				t.Errorf("unexpected problems:\n%s", strings.Join(got, "\n"))
			}
			if p.hangulFont {
				font := HangulFont(t, tab.Ctx, "h1")
				if !strings.Contains(font, "CJK") {
					t.Errorf("Hangul of the h1 drawn with %q, want a CJK font", font)
				}
				// The marker span is gone again, so the page reads as before.
				if h1After, _ := chromedp.Run(tab.Ctx, chromedp.TextContent(chromedp.CSS("h1"))); h1After != p.h1 {
					t.Errorf("HangulFont changed the h1 to %q", h1After)
				}
			}
		})
	}

	t.Run("problems reset", func(t *testing.T) {
		tab.Open(t, base+"/bad/console.html")
		if len(tab.Problems()) == 0 {
			t.Fatal("console.html gave no problems")
		}
		tab.Open(t, base+"/good/")
		if got := tab.Problems(); len(got) != 0 {
			t.Errorf("problems of the previous page leaked into the next: %q", got)
		}
	})

	t.Run("screenshot", func(t *testing.T) {
		for _, vp := range []Viewport{Desktop, Phone} {
			img, err := capture(tab.Ctx, base+"/good/", vp)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := png.DecodeConfig(bytes.NewReader(img))
			if err != nil {
				t.Fatalf("%+v: not a PNG: %v", vp, err)
			}
			if int64(cfg.Width) != vp.Width || int64(cfg.Height) < vp.Height {
				t.Errorf("%+v: image is %dx%d", vp, cfg.Width, cfg.Height)
			}
		}
		// CaptureClicked opens what it clicks before the picture, and a
		// selector that matches nothing is an error.
		height := func(click string) int {
			img, err := CaptureClicked(tab.Ctx, base+"/fold/", Desktop, 50*time.Millisecond, click)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := png.DecodeConfig(bytes.NewReader(img))
			if err != nil {
				t.Fatal(err)
			}
			return cfg.Height
		}
		if closed, opened := height(""), height("summary"); opened < closed+2000 {
			t.Errorf("clicking the summary gave a %d px page, closed %d px: it did not open", opened, closed)
		}
		if _, err := CaptureClicked(tab.Ctx, base+"/fold/", Desktop, 0, "#no-such-thing"); err == nil || !strings.Contains(err.Error(), "nothing matches") {
			t.Errorf("a selector that matches nothing: %v", err)
		}
		path := filepath.Join(t.TempDir(), "shots", "good.png")
		saveScreenshot(t, tab.Ctx, base+"/good/", 800, 600, path)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if cfg, err := png.DecodeConfig(f); err != nil || cfg.Width != 800 {
			t.Errorf("saveScreenshot wrote %+v, %v; want an 800 px wide PNG", cfg, err)
		}
	})
}

// TestAllocatorArgs checks the exact command line chromedp runs: chromiumFlags, the
// profile folder and what chromedp needs to talk to the browser, nothing else.
func TestAllocatorArgs(t *testing.T) {
	dir := t.TempDir()
	var args []string
	opts := append(allocatorOptions(dir), chromedp.ModifyCmdFunc(func(cmd *exec.Cmd) {
		args = cmd.Args
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	}))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(allocCtx)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	want := []string{chromiumPath}
	for _, f := range chromiumFlags {
		want = append(want, "--"+f)
	}
	want = append(want, "--user-data-dir="+dir, "--remote-debugging-pipe", "about:blank")
	if !slices.Equal(args, want) {
		t.Errorf("browser command line\n%q\nwant\n%q", args, want)
	}
}
