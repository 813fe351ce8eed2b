// Package webtest owns the helpers that test the generated site the way a
// reader and a validator see it: a headless Chromium (through chromedp) with
// a record of the page's errors, a local HTTP server over an output folder,
// axe-core accessibility checks, the platform font used for Hangul, the Nu
// HTML checker (vnu.jar), linkinator and full-page screenshots.
//
// The helpers take a testing.TB and report what failed in words a person can
// act on. The tools they drive are installed by scripts/test-deps.sh (run by
// `make test`); a missing tool fails the test, it never skips it, so that a
// green run means the checks really ran.
package webtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromiumPath is the browser the tests drive: Debian's package, which
// scripts/test-deps.sh installs. Tests never download a browser.
const chromiumPath = "/usr/bin/chromium"

// chromiumFlags is the complete list of switches Chromium gets, apart from the
// --user-data-dir that StartBrowser adds and the --remote-debugging-pipe and
// about:blank that chromedp needs to talk to it. The list is deliberately
// short: no switch from chromedp's defaults is taken over, and the
// background-networking, component-update and sync switches keep the browser
// from reaching any host the page did not ask for (the machines that run the
// tests have no internet).
var chromiumFlags = []string{
	"headless",
	"no-sandbox",
	"disable-gpu",
	"disable-quic",
	"no-first-run",
	"disable-background-networking",
	"disable-component-update",
	"disable-sync",
}

// errNoBrowser is returned by StartBrowser when chromiumPath does not exist.
var errNoBrowser = errors.New("webtest: " + chromiumPath + " is missing; run `make test` (scripts/test-deps.sh installs chromium and the CJK fonts)")

// allocatorOptions are the chromedp allocator options for chromiumPath with
// exactly chromiumFlags and the given profile folder. StartBrowser uses
// them, so the tests and cmd/shoot start the browser the same way.
func allocatorOptions(userDataDir string) []chromedp.ExecAllocatorOption {
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(chromiumPath)}
	for _, f := range chromiumFlags {
		opts = append(opts, chromedp.Flag(f, true))
	}
	return append(opts, chromedp.UserDataDir(userDataDir))
}

// StartBrowser starts Chromium with allocatorOptions and opens its first tab.
// The returned context is the tab's chromedp context; calling stop closes
// the browser and waits for it to exit. Extra context options (for example
// chromedp.WithListener) apply to the first tab.
func StartBrowser(parent context.Context, userDataDir string, tabOpts ...chromedp.ContextOption) (ctx context.Context, stop func(), err error) {
	if _, err := os.Stat(chromiumPath); err != nil {
		return nil, nil, errNoBrowser
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(parent, allocatorOptions(userDataDir)...)
	tabCtx, cancelTab := chromedp.NewContext(allocCtx, tabOpts...)
	stop = func() {
		cancelTab()
		cancelAlloc()
	}
	// The first action starts the process, so a browser that cannot start
	// shows up here rather than in the first page a test opens. It must run
	// on tabCtx itself: chromedp ties the tab's life to the context of the
	// first action, so a timeout context here would close the tab with it.
	// The timer below bounds the start instead.
	timer := time.AfterFunc(60*time.Second, stop)
	err = chromedp.Do(tabCtx, chromedp.Navigate("about:blank"))
	if !timer.Stop() {
		err = fmt.Errorf("no answer within 60s (%v)", err)
	}
	if err != nil {
		stop()
		return nil, nil, fmt.Errorf("webtest: start %s: %w", chromiumPath, err)
	}
	return tabCtx, stop, nil
}

// Tab is one browser tab. Ctx is its chromedp context: pass it to chromedp
// actions and to the helpers of this package. The tab records what went
// wrong while pages loaded (see Problems).
type Tab struct {
	Ctx context.Context

	mu       sync.Mutex
	problems []string
	// requests maps the requests of the current page to their URLs, so that
	// a failure can name the URL, and so that late events of the previous
	// page (a request cancelled by the navigation) are not blamed on this one.
	requests map[network.RequestID]string
	inflight map[network.RequestID]bool
	// status is the HTTP status of each request that got one, so that a
	// request the browser then aborts (a 404 stylesheet served as text)
	// is reported with its status.
	status map[network.RequestID]int64
	// failed are the requests that failed; they are formatted only in
	// Problems, because the status can arrive after the failure.
	failed []failedRequest
}

type failedRequest struct {
	id       network.RequestID
	url, why string
}

// PageTimeout bounds one page load or one helper's work on a page.
const PageTimeout = 30 * time.Second

// Browser starts Chromium for the test and returns its tab. The browser is
// closed on t.Cleanup. A missing browser is a test failure, not a skip.
func Browser(t testing.TB) *Tab {
	t.Helper()
	tab := &Tab{}
	tab.reset()
	ctx, stop, err := StartBrowser(context.Background(), t.TempDir(), chromedp.WithListener(tab.listen))
	if err != nil {
		t.Fatal(err)
	}
	tab.Ctx = ctx
	t.Cleanup(stop)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: reportCSP}); err != nil {
		t.Fatal(err)
	}
	return tab
}

// reportCSP runs in every page before its own scripts and turns each
// Content-Security-Policy violation into a console error, which the tab
// records as a problem: a page that breaks the site's policy fails its test.
const reportCSP = `document.addEventListener("securitypolicyviolation", function (e) {
  console.error("CSP violation: " + e.effectiveDirective + " blocked " + (e.blockedURI || "inline code") +
    " at " + e.sourceFile + ":" + e.lineNumber + ":" + e.columnNumber);
});`

// reset forgets the problems and requests of the previous page.
func (tab *Tab) reset() {
	tab.mu.Lock()
	defer tab.mu.Unlock()
	tab.problems = nil
	tab.requests = map[network.RequestID]string{}
	tab.inflight = map[network.RequestID]bool{}
	tab.status = map[network.RequestID]int64{}
	tab.failed = nil
}

func (tab *Tab) add(format string, args ...any) {
	tab.problems = append(tab.problems, fmt.Sprintf(format, args...))
}

// listen runs on chromedp's message loop: it must only record, never call
// the browser.
func (tab *Tab) listen(ev any) {
	tab.mu.Lock()
	defer tab.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		tab.requests[ev.RequestID] = ev.Request.URL
		tab.inflight[ev.RequestID] = true
	case *network.EventResponseReceivedExtraInfo:
		tab.status[ev.RequestID] = ev.StatusCode
	case *network.EventLoadingFinished:
		delete(tab.inflight, ev.RequestID)
	case *network.EventResponseReceived:
		if _, ok := tab.requests[ev.RequestID]; ok && ev.Response != nil && ev.Response.Status >= 400 {
			tab.add("HTTP %d for %s", ev.Response.Status, ev.Response.URL)
		}
	case *network.EventLoadingFailed:
		url, ok := tab.requests[ev.RequestID]
		if !ok {
			return // a request of an earlier page
		}
		delete(tab.inflight, ev.RequestID)
		msg := ev.ErrorText
		if ev.BlockedReason != "" {
			msg += " (blocked: " + string(ev.BlockedReason) + ")"
		}
		if ev.CorsErrorStatus != nil {
			msg += " (CORS: " + string(ev.CorsErrorStatus.CorsError) + ")"
		}
		tab.failed = append(tab.failed, failedRequest{ev.RequestID, url, msg})
	case *log.EventEntryAdded:
		if e := ev.Entry; e != nil && e.Level == log.EntryLevelError {
			where := e.URL
			if where != "" && e.LineNumber > 0 {
				where = fmt.Sprintf("%s:%d", where, e.LineNumber+1)
			}
			tab.add("log error (%s): %s %s", e.Source, e.Text, where)
		}
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, remoteText(a))
			}
			tab.add("console.%s: %s", ev.Type, strings.Join(parts, " "))
		}
	case *runtime.EventExceptionThrown:
		if d := ev.ExceptionDetails; d != nil {
			text := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				text += " " + d.Exception.Description
			}
			tab.add("uncaught exception at %s:%d:%d: %s", d.URL, d.LineNumber+1, d.ColumnNumber+1, text)
		}
	}
}

func remoteText(o *runtime.RemoteObject) string {
	if o == nil {
		return ""
	}
	if len(o.Value) > 0 {
		return strings.Trim(string(o.Value), `"`)
	}
	if o.Description != "" {
		return o.Description
	}
	return string(o.Type)
}

// Open loads url in the tab, waits for the load event and then for the
// network to go quiet (so late requests are counted), after forgetting the
// problems of the previous page. It fails the test if the page does not load.
func (tab *Tab) Open(t testing.TB, url string) {
	t.Helper()
	tab.reset()
	ctx, cancel := context.WithTimeout(tab.Ctx, PageTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	tab.settle(ctx, 100*time.Millisecond, 3*time.Second)
}

// settle waits until no request has been in flight for quiet, or until max.
func (tab *Tab) settle(ctx context.Context, quiet, max time.Duration) {
	deadline := time.Now().Add(max)
	idleSince := time.Now()
	for time.Now().Before(deadline) && ctx.Err() == nil {
		tab.mu.Lock()
		busy := len(tab.inflight) > 0
		tab.mu.Unlock()
		if busy {
			idleSince = time.Now()
		} else if time.Since(idleSince) >= quiet {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Problems returns what went wrong since the last Open: failed requests,
// HTTP errors, console.error calls, error-level log entries and uncaught
// exceptions, each as one line, sorted and without duplicates.
func (tab *Tab) Problems() []string {
	tab.mu.Lock()
	defer tab.mu.Unlock()
	out := append([]string(nil), tab.problems...)
	for _, f := range tab.failed {
		why := f.why
		if code := tab.status[f.id]; code != 0 {
			why += fmt.Sprintf(" (HTTP %d)", code)
		}
		out = append(out, fmt.Sprintf("request failed: %s: %s", f.url, why))
	}
	sort.Strings(out)
	return compact(out)
}

func compact(s []string) []string {
	var out []string
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
