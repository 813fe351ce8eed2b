package e2e

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"strings"
	"testing"

	"incidentlib/internal/urls"
	"incidentlib/internal/webtest"
)

// A staticHost serves a built site as one kind of static host does, by the
// rules that decide whether the site works there: which files it publishes,
// how a folder address finds its page, which page answers a missing path
// and which headers it sends. The rules are the hosts' documented ones; no
// host is installed.
type staticHost struct {
	name string
	// prefix is the path the site is served under, as a GitHub Pages
	// project site is served under /REPO/.
	prefix string
	// publishes reports whether the host serves the file at p (a path in
	// the output); a host publishes all files unless it says otherwise.
	publishes func(p string) bool
	// index: a folder address (ending in /) serves its index.html.
	index bool
	// slash: a folder address without its slash redirects to it.
	slash bool
	// headers: the host applies the site's _headers file and does not
	// serve it (nor _redirects).
	headers bool
	// notFound returns the page that answers the missing path p, or "".
	notFound func(fsys fs.FS, p string) string
}

// jekyllKeeps is GitHub Pages' Jekyll, which a branch deploy runs unless
// the output holds .nojekyll: it leaves out every file or folder whose name
// starts with ".", "_", "#" or "~" or ends in "~". The test serves the site
// as if Jekyll had run anyway, the worse case: .nojekyll lost on the way.
func jekyllKeeps(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if part == "" {
			continue
		}
		if strings.ContainsAny(part[:1], "._#~") || strings.HasSuffix(part, "~") {
			return false
		}
	}
	return true
}

// rootNotFound is a host with one error page for the whole site (GitHub
// Pages, an S3 website's ErrorDocument).
func rootNotFound(fs.FS, string) string { return urls.NotFound }

// nearestNotFound is Cloudflare Pages: the nearest 404.html up the path.
func nearestNotFound(fsys fs.FS, p string) string {
	for _, nf := range urls.NotFoundFor(p) {
		if _, err := fs.Stat(fsys, nf); err == nil {
			return nf
		}
	}
	return ""
}

// redirectsNotFound is Netlify: the first rule of _redirects with status
// 404 whose pattern matches (only a trailing * is used), else the root
// 404.html.
func redirectsNotFound(fsys fs.FS, p string) string {
	f, err := fsys.Open(urls.Redirects)
	if err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) != 3 || strings.HasPrefix(fields[0], "#") || fields[2] != "404" {
				continue
			}
			from := strings.TrimPrefix(fields[0], "/")
			if prefix, ok := strings.CutSuffix(from, "*"); ok && strings.HasPrefix(p, prefix) || from == p {
				return strings.TrimPrefix(fields[1], "/")
			}
		}
	}
	return urls.NotFound
}

// nginxNotFound is the README's nginx configuration: error_page 404 per
// language folder, the root's elsewhere.
func nginxNotFound(_ fs.FS, p string) string {
	for _, lang := range []string{"en", "ko"} {
		if strings.HasPrefix(p, lang+"/") {
			return urls.NotFoundIn(lang)
		}
	}
	return urls.NotFound
}

var staticHosts = []staticHost{
	{name: "github-pages", prefix: "/incidentlib", publishes: jekyllKeeps, index: true, slash: true, notFound: rootNotFound},
	{name: "netlify", headers: true, index: true, slash: true, notFound: redirectsNotFound},
	{name: "cloudflare-pages", headers: true, index: true, slash: true, notFound: nearestNotFound},
	// An S3 website endpoint with the documented settings IndexDocument
	// index.html and ErrorDocument 404.html: a key ending in / gets the
	// index document appended, and the same key without the slash
	// redirects there. Without them S3 has no folder pages at all.
	{name: "s3-website", index: true, slash: true, notFound: rootNotFound},
	// nginx: root the output; try_files $uri $uri/ =404; error_page as in
	// the README.
	{name: "nginx", prefix: "/incidentlib", index: true, slash: true, notFound: nginxNotFound},
}

// handler serves dir by the host's rules.
func (h staticHost) handler(dir string) http.Handler {
	fsys := os.DirFS(dir)
	var headers http.Handler
	if h.headers {
		// webtest.Handler applies _headers as such hosts do; only its
		// headers are taken from it, the rest is this host's.
		headers = webtest.Handler(dir)
	}
	published := func(p string) bool {
		if h.headers && (p == urls.Headers || p == urls.Redirects) {
			return false
		}
		return h.publishes == nil || h.publishes(p)
	}
	open := func(p string) ([]byte, bool) {
		if !published(p) {
			return nil, false
		}
		b, err := fs.ReadFile(fsys, p)
		return b, err == nil
	}
	isFolder := func(p string) bool {
		info, err := fs.Stat(fsys, strings.TrimSuffix(p, "/"))
		return err == nil && info.IsDir()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if headers != nil {
			rec := httptest.NewRecorder()
			headers.ServeHTTP(rec, r)
			for k, v := range rec.Header() {
				if k != "Content-Type" && k != "Content-Length" && k != "Location" && k != "Last-Modified" && k != "Accept-Ranges" {
					w.Header()[k] = v
				}
			}
		}
		p := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if strings.HasSuffix(r.URL.Path, "/") && p != "" {
			p += "/"
		}
		file := p
		if urls.IsFolder(p) {
			if !h.index {
				file = ""
			} else {
				file = urls.File(p)
			}
		} else if h.slash && isFolder(p) {
			if _, ok := open(urls.File(p + "/")); ok {
				http.Redirect(w, r, h.prefix+"/"+p+"/", http.StatusMovedPermanently)
				return
			}
		}
		if b, ok := open(file); ok && file != "" {
			w.Header().Set("Content-Type", contentType(file))
			w.Write(b)
			return
		}
		if nf := h.notFound(fsys, p); nf != "" {
			if b, ok := open(nf); ok {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.WriteHeader(http.StatusNotFound)
				w.Write(b)
				return
			}
		}
		http.NotFound(w, r)
	})
}

func contentType(file string) string {
	switch path.Ext(file) {
	case ".md":
		return "text/markdown; charset=utf-8"
	case ".txt":
		return "text/plain; charset=utf-8"
	}
	if t := mime.TypeByExtension(path.Ext(file)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// serveAs serves dir as h until the test ends and returns the site's
// address, prefix included, without a trailing slash.
func serveAs(t *testing.T, h staticHost, dir string) string {
	t.Helper()
	mux := http.NewServeMux()
	if h.prefix != "" {
		mux.Handle(h.prefix+"/", http.StripPrefix(h.prefix, h.handler(dir)))
	} else {
		mux.Handle("/", h.handler(dir))
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + h.prefix
}

// TestStaticHosts serves the built site as GitHub Pages (with Jekyll's
// rules applied), Netlify, Cloudflare Pages, an S3 website and nginx do,
// and on each runs searches in both languages in a browser, reads a page
// and the API, and asks for a missing page in each language.
func TestStaticHosts(t *testing.T) {
	t.Parallel()
	public := site(t)
	if _, err := os.Stat(public + "/" + urls.NoJekyll); err != nil {
		t.Errorf("the output has no %s: %v", urls.NoJekyll, err)
	}
	tab := webtest.Browser(t)
	for _, h := range staticHosts {
		t.Run(h.name, func(t *testing.T) {
			base := serveAs(t, h, public)
			s := searchTab{t, tab}
			for _, q := range []struct{ lang, q, want string }{
				{"en", "load balancer", "IL-0495"},
				{"ko", "로드밸런서", "IL-0495"},
				{"ko", "인그레스", ""},
			} {
				u := base + "/" + q.lang + "/search/"
				s.open(u)
				s.typeQuery(q.q)
				got := s.allResultIDs()
				if len(got) == 0 || q.want != "" && !hasTerm(got, q.want) {
					t.Errorf("%s: %q found %v, want %s among them", u, q.q, got, q.want)
				}
				if msg := s.str(`document.querySelector("` + statusSel + `").textContent`); strings.Contains(msg, "could not be loaded") {
					t.Errorf("%s: %s", u, msg)
				}
				s.checkClean(u)
			}
			for _, p := range []string{"/", "/en/", "/ko/cases/IL-0495/", "/api/v1/cases.json", "/sitemap.xml", "/robots.txt", "/llms.txt"} {
				if code, _ := get(t, base+p); code != http.StatusOK {
					t.Errorf("%s%s: status %d", base, p, code)
				}
			}
			for _, lang := range []string{"en", "ko"} {
				code, body := get(t, base+"/"+lang+"/no-such-page/")
				if code != http.StatusNotFound || !strings.Contains(body, `lang="`+lang+`"`) && !strings.Contains(body, `lang=`+lang) {
					t.Errorf("%s: a missing %s page: status %d, not a page in %s", h.name, lang, code, lang)
				}
			}
		})
	}
}

func get(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}
