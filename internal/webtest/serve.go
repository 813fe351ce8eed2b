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
)

// Handler serves dir the way a static CDN serves a site: a folder URL serves
// its index.html, a folder URL without the trailing slash redirects to it, a
// folder without index.html and any missing path get 404 with the body of
// dir/404.html when there is one. Unlike http.FileServer it lists no folder
// and does not redirect /x/index.html to /x/, so the links a page writes are
// checked as written.
func Handler(dir string) http.Handler {
	root := os.DirFS(dir)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
			if !strings.HasSuffix(r.URL.Path, "/") {
				http.Redirect(w, r, r.URL.Path+"/", http.StatusMovedPermanently)
				return
			}
			name = path.Join(name, "index.html")
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

func notFound(w http.ResponseWriter, r *http.Request, root fs.FS) {
	body, err := fs.ReadFile(root, "404.html")
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
