package webtest

import (
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"incidentlib/internal/urls"
)

// Handler serves dir the way a static CDN serves a site: a folder URL serves
// its index.html, a folder URL without the trailing slash redirects to it, a
// folder without index.html and any missing path get 404 with the body of
// dir/404.html when there is one. Unlike http.FileServer it lists no folder
// and does not redirect /x/index.html to /x/, so the links a page writes are
// checked as written. The response headers that dir/_headers gives are
// sent as such a host sends them, so a browser test runs under the site's
// Content-Security-Policy.
func Handler(dir string) http.Handler {
	root := os.DirFS(dir)
	rules := readHeaders(root)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, rule := range rules {
			if rule.match(r.URL.Path) {
				for _, h := range rule.headers {
					w.Header().Set(h[0], h[1])
				}
			}
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" {
			name = "."
		}
		fi, err := fs.Stat(root, name)
		if err == nil && fi.IsDir() {
			if !urls.IsFolder(r.URL.Path) {
				http.Redirect(w, r, r.URL.Path+"/", http.StatusMovedPermanently)
				return
			}
			name = path.Join(name, urls.IndexFile)
			fi, err = fs.Stat(root, name)
		}
		if err != nil || fi.IsDir() {
			notFound(w, r, root)
			return
		}
		f, err := root.Open(name)
		if err != nil {
			notFound(w, r, root)
			return
		}
		defer f.Close()
		rs, ok := f.(interface {
			Read([]byte) (int, error)
			Seek(int64, int) (int64, error)
		})
		if !ok {
			http.Error(w, "cannot seek "+name, http.StatusInternalServerError)
			return
		}
		http.ServeContent(w, r, fi.Name(), fi.ModTime(), rs)
	})
}

// headerRule is one block of a _headers file: a path pattern, where * stands
// for any run of characters, and the headers of the paths it matches.
type headerRule struct {
	prefix, suffix string
	star           bool
	headers        [][2]string
}

func (r headerRule) match(p string) bool {
	if !r.star {
		return p == r.prefix
	}
	return len(p) >= len(r.prefix)+len(r.suffix) && strings.HasPrefix(p, r.prefix) && strings.HasSuffix(p, r.suffix)
}

// readHeaders reads the _headers file at the root of a site, if any: blocks
// of a path line followed by indented "Name: value" lines; # starts a
// comment. Every block that matches a path applies, in order.
func readHeaders(root fs.FS) []headerRule {
	b, err := fs.ReadFile(root, "_headers")
	if err != nil {
		return nil
	}
	var rules []headerRule
	for _, line := range strings.Split(string(b), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		case line[0] != ' ' && line[0] != '\t':
			prefix, suffix, star := strings.Cut(trimmed, "*")
			rules = append(rules, headerRule{prefix: prefix, suffix: suffix, star: star})
		case len(rules) > 0:
			if name, value, ok := strings.Cut(trimmed, ":"); ok {
				last := &rules[len(rules)-1]
				last.headers = append(last.headers, [2]string{strings.TrimSpace(name), strings.TrimSpace(value)})
			}
		}
	}
	return rules
}

// notFound answers a missing path with the nearest 404.html up its path
// (urls.NotFoundFor), as Cloudflare Pages and Netlify do.
func notFound(w http.ResponseWriter, r *http.Request, root fs.FS) {
	var body []byte
	err := fs.ErrNotExist
	// The cleaned path: "/../x" must not look for ../404.html.
	for _, nf := range urls.NotFoundFor(strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")) {
		if body, err = fs.ReadFile(root, nf); !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// Serve starts an HTTP server on localhost over dir (see Handler) for the
// length of the test and returns its base URL, without a trailing slash.
func Serve(t testing.TB, dir string) string {
	t.Helper()
	srv := httptest.NewServer(Handler(absDir(t, dir)))
	t.Cleanup(srv.Close)
	return srv.URL
}

// ServeUnder is Serve with the site under a path prefix such as
// "/incidentlib", as a site deployed to a sub-path is: every missing path
// under the prefix gets the site's 404.html, as from a static host. It
// returns the server's URL with the prefix.
func ServeUnder(t testing.TB, dir, prefix string) string {
	t.Helper()
	if prefix == "" {
		return Serve(t, dir)
	}
	mux := http.NewServeMux()
	mux.Handle(prefix+"/", http.StripPrefix(prefix, Handler(absDir(t, dir))))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + prefix
}

// FileURL is the file:// URL of a file on disk, as a browser opening it from
// a folder would see it.
func FileURL(t testing.TB, file string) string {
	t.Helper()
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}
