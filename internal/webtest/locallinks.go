package webtest

import (
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/tdewolff/parse/v2"

	"incidentlib/internal/urls"

	phtml "github.com/tdewolff/parse/v2/html"
)

// linkAttrs are the attributes that hold a URL, by element: the table
// linkinator uses, so that LocalLinks and Links look at the same links.
var linkAttrs = map[string][]string{
	"a": {"href"}, "area": {"href"}, "link": {"href"},
	"embed": {"href", "src", "pluginspage", "pluginurl"},
	"body":  {"background"}, "blockquote": {"cite"}, "del": {"cite"}, "ins": {"cite"}, "q": {"cite"},
	"object": {"data"}, "command": {"icon"}, "frame": {"longdesc", "src"}, "iframe": {"longdesc", "src"},
	"html": {"manifest"}, "meta": {"content"}, "video": {"poster", "src"},
	"audio": {"src"}, "img": {"src", "srcset"}, "input": {"src"}, "script": {"src"}, "source": {"src", "srcset"},
	"track": {"src"},
}

var metaRefresh = regexp.MustCompile(`(?i)^\s*\d+\s*;\s*url\s*=\s*(.+)`)

// LocalLinks checks the links of every HTML page under dir (but 404.html,
// as Links) without a server, a browser or node: it reads each page, takes
// the URLs of the attributes linkinator reads, and asks Handler for each
// URL of the site, in process, following its redirects. It returns each
// broken link as Links does, "URL (HTTP status) on PARENT", so the two can
// be compared; links to other hosts are not checked. It is for generated
// libraries of thousands of pages, where a crawl over HTTP costs minutes.
func LocalLinks(t testing.TB, dir string) []string {
	t.Helper()
	dir = absDir(t, dir)
	pages := htmlPages(t, dir, "local links")
	c := &localChecker{h: Handler(dir), statuses: map[string]int{}, seen: map[string]bool{}}
	var (
		wg   sync.WaitGroup
		work = make(chan string)
		errs []string
	)
	for range 2 * max(1, runtime.NumCPU()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				rel, _ := filepath.Rel(dir, p)
				page := "/" + urls.Page(filepath.ToSlash(rel))
				b, err := os.ReadFile(p)
				if err != nil {
					c.outMu.Lock()
					errs = append(errs, err.Error())
					c.outMu.Unlock()
					continue
				}
				c.check(b, page)
			}
		}()
	}
	for _, p := range pages {
		work <- p
	}
	close(work)
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("local links: %s", strings.Join(errs, "; "))
	}
	sort.Strings(c.out)
	return c.out
}

// htmlPages lists the HTML pages under dir but the 404 pages (the root's
// and each language's: reached by bad links, not pages of their own); none
// is an error, which who (the caller) reports.
func htmlPages(t testing.TB, dir, who string) []string {
	t.Helper()
	var pages []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		if filepath.Base(p) != urls.NotFound {
			pages = append(pages, p)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("%s: list pages of %s: %v", who, dir, err)
	}
	if len(pages) == 0 {
		t.Fatalf("%s: no .html file under %s", who, dir)
	}
	return pages
}

// localOrigin is the origin LocalLinks reads the pages' links against.
const localOrigin = "http://site.test"

// localChecker is the state LocalLinks's workers share: each path's status,
// asked of the handler once, and the broken links found, each once.
type localChecker struct {
	h        http.Handler
	mu       sync.Mutex
	statuses map[string]int
	outMu    sync.Mutex
	out      []string
	seen     map[string]bool
}

// status answers for a path once, with the page served for it when it is
// missing; first says this call asked.
func (c *localChecker) status(u *url.URL) (s int, body []byte, first bool) {
	c.mu.Lock()
	s, ok := c.statuses[u.Path]
	c.mu.Unlock()
	if ok {
		return s, nil, false
	}
	s, body = serveStatus(c.h, u.Path)
	c.mu.Lock()
	defer c.mu.Unlock()
	if prev, ok := c.statuses[u.Path]; ok {
		return prev, nil, false
	}
	c.statuses[u.Path] = s
	return s, body, true
}

// report keeps a broken link's line, once.
func (c *localChecker) report(line string) {
	c.outMu.Lock()
	defer c.outMu.Unlock()
	if !c.seen[line] {
		c.seen[line] = true
		c.out = append(c.out, line)
	}
}

// check reports the broken links of page, whose HTML is b.
func (c *localChecker) check(b []byte, page string) {
	base, _ := url.Parse(localOrigin + page)
	refs, baseHref := pageLinks(b)
	if baseHref != "" {
		if bu, err := base.Parse(baseHref); err == nil {
			base = bu
		}
	}
	for _, ref := range refs {
		u, err := base.Parse(ref)
		if err != nil {
			c.report(fmt.Sprintf("%s (unreadable URL: %v) on %s", ref, err, page))
			continue
		}
		if u.Scheme+"://"+u.Host != localOrigin {
			continue
		}
		s, notFound, first := c.status(u)
		if s == http.StatusOK {
			continue
		}
		local := u.Path
		if u.RawQuery != "" {
			local += "?" + u.RawQuery
		}
		c.report(fmt.Sprintf("%s (HTTP %d) on %s", local, s, page))
		// A missing page is answered with a 404 page, whose links are
		// read from where it is served, as linkinator reads them: for a
		// page below the one that links to it (linkinator follows links
		// below its start page only).
		folder := page[:strings.LastIndex(page, "/")+1]
		if first && s == http.StatusNotFound && len(notFound) > 0 && strings.HasPrefix(u.Path, folder) &&
			(urls.IsFolder(u.Path) || strings.HasSuffix(u.Path, ".html")) {
			c.check(notFound, u.Path)
		}
	}
}

// serveStatus asks h for path as a GET would, following up to five
// redirects on the same site, and returns the final status, with the body
// of a 404 answer in HTML (the site's 404 page).
func serveStatus(h http.Handler, path string) (int, []byte) {
	for range 5 {
		rec := httptest.NewRecorder()
		// GET for a page, whose 404 answer is read; HEAD for the rest.
		method := http.MethodHead
		if urls.IsFolder(path) || strings.HasSuffix(path, ".html") {
			method = http.MethodGet
		}
		h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
		if rec.Code == http.StatusNotFound && strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			return rec.Code, rec.Body.Bytes()
		}
		if rec.Code < 300 || rec.Code >= 400 {
			return rec.Code, nil
		}
		loc, err := url.Parse(rec.Header().Get("Location"))
		if err != nil || loc.Host != "" {
			return rec.Code, nil
		}
		path = (&url.URL{Path: path}).ResolveReference(loc).Path
	}
	return http.StatusLoopDetected, nil
}

// pageLinks returns the URLs an HTML page links to through linkAttrs and
// the page's <base href> if any, and a <meta> content only
// when it is a URL or a refresh's target (as linkinator reads them).
func pageLinks(page []byte) (refs []string, baseHref string) {
	l := phtml.NewLexer(parse.NewInputBytes(page))
	tag := ""
	var attrs [][2]string
	flush := func() {
		if tag == "" {
			return
		}
		names := linkAttrs[tag]
		get := func(k string) string {
			for _, a := range attrs {
				if a[0] == k {
					return a[1]
				}
			}
			return ""
		}
		if tag == "base" && baseHref == "" {
			baseHref = get("href")
		}
		if tag == "link" && (get("rel") == "dns-prefetch" || get("rel") == "preconnect") {
			names = nil
		}
		for _, name := range names {
			v := get(name)
			if v == "" {
				continue
			}
			switch {
			case tag == "meta":
				if m := metaRefresh.FindStringSubmatch(v); m != nil && strings.EqualFold(get("http-equiv"), "refresh") {
					refs = append(refs, strings.TrimSpace(m[1]))
				} else if u, err := url.Parse(v); err == nil && u.IsAbs() && !strings.EqualFold(get("http-equiv"), "refresh") {
					refs = append(refs, v)
				}
			case name == "srcset":
				for _, c := range strings.Split(v, ",") {
					if f := strings.Fields(c); len(f) > 0 {
						refs = append(refs, f[0])
					}
				}
			default:
				refs = append(refs, strings.TrimSpace(v))
			}
		}
		tag, attrs = "", nil
	}
	for {
		tt, _ := l.Next()
		switch tt {
		case phtml.ErrorToken:
			flush()
			return refs, baseHref
		case phtml.StartTagToken:
			flush()
			tag = strings.ToLower(string(l.Text()))
		case phtml.AttributeToken:
			v := l.AttrVal()
			if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
				v = v[1 : len(v)-1]
			}
			attrs = append(attrs, [2]string{strings.ToLower(string(l.AttrKey())), html.UnescapeString(string(v))})
		case phtml.StartTagCloseToken, phtml.StartTagVoidToken:
			flush()
		}
	}
}

// ElementText returns the text of the first element named tag in an HTML
// page, markup left out and character references decoded, as a reader
// sees it (white space as written); ok is false when there is none.
func ElementText(page []byte, tag string) (text string, ok bool) {
	l := phtml.NewLexer(parse.NewInputBytes(page))
	depth := 0
	var b strings.Builder
	for {
		tt, data := l.Next()
		switch tt {
		case phtml.ErrorToken:
			return b.String(), ok
		case phtml.StartTagToken:
			if strings.EqualFold(string(l.Text()), tag) {
				if depth == 0 && ok {
					return b.String(), true
				}
				ok = true
				depth++
			}
		case phtml.EndTagToken:
			if strings.EqualFold(string(l.Text()), tag) && depth > 0 {
				depth--
				if depth == 0 {
					return b.String(), true
				}
			}
		case phtml.TextToken:
			if depth > 0 {
				b.WriteString(html.UnescapeString(string(data)))
			}
		}
	}
}
