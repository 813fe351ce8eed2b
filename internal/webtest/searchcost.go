package webtest

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"incidentlib/internal/urls"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// SearchCost is what the search page of a site costs in bytes, as sent
// (gzip where the server compresses), on a first visit with no cache. Every
// figure counts the page's HTML, CSS, scripts and index files alike.
type SearchCost struct {
	// First: from opening the page until the results of the first query
	// are on screen.
	First int64
	// Settled: the whole page once nothing more loads after the first
	// query, with every filter group left folded as the page opens them.
	Settled int64
	// Further: a second query on the same page, until its results show.
	Further int64
}

// MeasureSearch opens page (a search page of the site) in a new tab of the
// browser of ctx with the cache off, types q and then next, and returns
// what each step cost. With keyByKey, q is typed one character at a time
// (for Korean, one syllable: what an input method commits), each key as
// soon as the page has drawn what the one before it found, so that every
// prefix is searched and none stays on screen long enough for the page to
// fetch the rest of its results: the bytes depend on the page's rules, not
// on how fast the machine is. Otherwise q is typed at once. Bytes are the encoded body sizes the page's Resource Timing
// reports, so the server's compression counts and HTTP headers do not.
// With SEARCHCOST_DEBUG set in the environment it lists the requests of the
// first query on standard error.
func MeasureSearch(ctx context.Context, page, q, next string, keyByKey bool) (SearchCost, error) {
	var c SearchCost
	tab, cancel := chromedp.NewContext(ctx)
	defer cancel()
	tab, cancelT := context.WithTimeout(tab, 2*time.Minute)
	defer cancelT()
	if _, err := chromedp.Call(tab, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
		return c, err
	}
	err := chromedp.Do(tab,
		chromedp.Navigate(page),
		chromedp.Poll[chromedp.Void](`document.readyState === "complete" && !!document.querySelector('form[data-search="page"]')?.__incidentSearch && !!document.querySelector("[data-search-facets] fieldset")`),
	)
	if err != nil {
		return c, fmt.Errorf("open %s: %w", page, err)
	}
	if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](costScript, chromedp.EvalAwaitPromise)); err != nil {
		return c, err
	}
	typeQ := func(text string, byKey bool) (float64, error) {
		qJSON, _ := json.Marshal(text)
		return chromedp.Run(tab, chromedp.Evaluate[float64](fmt.Sprintf(`window.__cost.type(%s, %v)`, qJSON, byKey), chromedp.EvalAwaitPromise))
	}
	sum := func(from, to float64, nav bool) (int64, error) {
		return chromedp.Run(tab, chromedp.Evaluate[int64](fmt.Sprintf(`window.__cost.bytes(%f, %f, %v)`, from, to, nav)))
	}
	shown, err := typeQ(q, keyByKey)
	if err != nil {
		return c, fmt.Errorf("%s: query %q: %w", page, q, err)
	}
	if c.First, err = sum(0, shown, true); err != nil {
		return c, err
	}
	if os.Getenv("SEARCHCOST_DEBUG") != "" {
		list, _ := chromedp.Run(tab, chromedp.Evaluate[[]string](fmt.Sprintf(`performance.getEntriesByType("resource").filter(e => e.responseEnd <= %f).map(e => e.encodedBodySize + " " + e.name)`, shown)))
		fmt.Fprintln(os.Stderr, strings.Join(list, "\n"))
	}
	if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](`window.__cost.settle()`, chromedp.EvalAwaitPromise)); err != nil {
		return c, fmt.Errorf("%s: settle: %w", page, err)
	}
	if c.Settled, err = sum(0, 1e12, true); err != nil {
		return c, err
	}
	start, err := chromedp.Run(tab, chromedp.Evaluate[float64](`performance.now()`))
	if err != nil {
		return c, err
	}
	shown, err = typeQ(next, false)
	if err != nil {
		return c, fmt.Errorf("%s: query %q: %w", page, next, err)
	}
	c.Further, err = sum(start, shown, false)
	return c, err
}

// costScript installs window.__cost in the page: type(text, byKey) types
// into the search box and resolves to the time the results of text are on
// screen (the status line names the query once they are drawn); bytes(from,
// to, nav) sums the encoded bodies of the requests that started at or
// after from and ended by to, with the page itself when nav is set;
// settle() resolves once the whole first page of results is shown, no
// filter group is busy and nothing has loaded for a second.
//
// Key by key, the next key goes in from the mutation observer that sees the
// status line drawn for the previous prefix (anything but "Searching…"),
// that is in the same task as the drawing. The page's timer for the rest of
// the results, set while drawing, is then always due after its debounce
// timer for the new key, which supersedes it, however slow the machine.
const costScript = `(async () => {
  performance.setResourceTimingBufferSize(100000);
  const form = document.querySelector('form[data-search="page"]');
  const input = form.querySelector('input[name="q"]');
  const status = document.querySelector("[data-search-status]");
  const shown = (text) => new Promise((resolve) => {
    const want = "\u201c" + text.trim() + "\u201d";
    const check = () => {
      if (status.textContent.includes(want)) { obs.disconnect(); resolve(performance.now()); return true; }
      return false;
    };
    const obs = new MutationObserver(check);
    obs.observe(status, { childList: true, subtree: true, characterData: true });
  });
  const loading = IncidentSearch.strings[form.getAttribute("data-lang") === "ko" ? "ko" : "en"].loading;
  const drawn = () => new Promise((resolve) => {
    const obs = new MutationObserver(() => {
      if (status.textContent !== loading) { obs.disconnect(); resolve(); }
    });
    obs.observe(status, { childList: true, subtree: true, characterData: true });
  });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  window.__cost = {
    type: async (text, byKey) => {
      const done = shown(text);
      const chars = Array.from(text);
      if (byKey) {
        for (let i = 1; i <= chars.length; i++) {
          const next = drawn();
          input.value = chars.slice(0, i).join("");
          input.dispatchEvent(new Event("input", { bubbles: true }));
          if (i < chars.length) await next;
        }
      } else {
        input.value = text;
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
      return done;
    },
    bytes: (from, to, nav) => {
      let n = 0;
      if (nav) for (const e of performance.getEntriesByType("navigation")) n += e.encodedBodySize;
      for (const e of performance.getEntriesByType("resource")) {
        if (e.startTime >= from && e.responseEnd <= to) n += e.encodedBodySize;
      }
      return n;
    },
    settle: async () => {
      const facets = document.querySelector("[data-search-facets]");
      const page = form.__incidentSearch;
      let count = -1;
      for (let i = 0; i < 300; i++) {
        const now = performance.getEntriesByType("resource").length;
        const whole = page.last && page.last.hits.length >= Math.min(page.shown, page.last.total);
        if (whole && !facets.querySelector("[aria-busy]") && now === count) return true;
        count = now;
        await sleep(1000);
      }
      return false;
    },
  };
  return true;
})()`

// Gzip compresses text responses for clients that accept gzip, as a CDN
// does. Files whose names end otherwise (Pagefind's .pf_ files are gzip
// already) are left alone.
func Gzip(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ext := filepath.Ext(r.URL.Path)
		text := ext == ".js" || ext == ".json" || ext == ".css" || ext == ".html" || ext == ".svg" || urls.IsFolder(r.URL.Path)
		if !text || !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			h.ServeHTTP(w, r)
			return
		}
		// Ranges and lengths would describe the uncompressed body.
		r.Header.Del("Range")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Add("Vary", "Accept-Encoding")
		gz := gzip.NewWriter(w)
		defer gz.Close()
		h.ServeHTTP(&gzipWriter{ResponseWriter: w, w: gz}, r)
	})
}

type gzipWriter struct {
	http.ResponseWriter
	w io.Writer
}

func (g *gzipWriter) WriteHeader(code int) {
	g.Header().Del("Content-Length")
	g.ResponseWriter.WriteHeader(code)
}

func (g *gzipWriter) Write(p []byte) (int, error) {
	g.Header().Del("Content-Length")
	return g.w.Write(p)
}
