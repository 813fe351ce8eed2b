package serve

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"incidentlib"
	"incidentlib/internal/repotest"
	"incidentlib/internal/site"
)

// request sends GET url with the given Host header and returns the status.
func request(t *testing.T, url, host string) *http.Response {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestForeignHost: a request that names another site in its Host header,
// as a page of that site makes after rebinding its name to 127.0.0.1, gets
// nothing: not a page, not an API file, not the event stream. Requests for
// this machine are answered, and every answer has the security headers.
func TestForeignHost(t *testing.T) {
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: repotest.ContentDir(t)})
	port := r.url[strings.LastIndex(r.url, ":"):]
	for _, path := range []string{"/en/", "/en/cases/IL-0495/", "/api/v1/cases.json", eventsPath, reloadPath} {
		for _, host := range []string{"evil.example" + port, "evil.example", "127.0.0.1.evil.example" + port, "localhost.evil.example"} {
			resp := request(t, r.url+path, host)
			if resp.StatusCode != http.StatusMisdirectedRequest {
				t.Errorf("GET %s with Host %s: %d, want 421", path, host, resp.StatusCode)
			}
			if ct := resp.Header.Get("Content-Type"); ct == "text/event-stream" {
				t.Errorf("GET %s with Host %s: opened the event stream", path, host)
			}
		}
		if path == eventsPath {
			continue // a stream does not end; its refusal is what matters here
		}
		for _, host := range []string{"localhost" + port, "127.0.0.1" + port, "[::1]" + port, "LOCALHOST" + port, "localhost"} {
			resp := request(t, r.url+path, host)
			if resp.StatusCode != http.StatusOK {
				t.Errorf("GET %s with Host %s: %d, want 200", path, host, resp.StatusCode)
			}
			for _, h := range site.SecurityHeaders {
				if got := resp.Header.Get(h.Name); got != h.Value {
					t.Errorf("GET %s: %s %q, want %q", path, h.Name, got, h.Value)
				}
			}
		}
	}
	// The address the server was told to listen on counts as its own.
	srv := &Server{opt: Options{Addr: "192.0.2.7:1313"}}
	for host, want := range map[string]bool{"192.0.2.7:1313": true, "192.0.2.7": true, "192.0.2.8:1313": false, "[::1]:1313": true} {
		if srv.local(host) != want {
			t.Errorf("listening on %s, Host %s: local = %v", srv.opt.Addr, host, !want)
		}
	}
	if (&Server{opt: Options{Addr: "0.0.0.0:1313"}}).local("0.0.0.0:1313") {
		t.Error("Host 0.0.0.0 accepted")
	}
}

// TestContentFolderReplaced: the content folder deleted and put back, and
// then replaced by another with mv, is picked up without a restart, and
// edits in the new folder show.
func TestContentFolderReplaced(t *testing.T) {
	dir := repotest.ContentDir(t)
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: dir})
	page := r.url + "/en/cases/IL-0495/"
	backup := filepath.Join(t.TempDir(), "backup")
	if err := os.CopyFS(backup, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}

	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	waitFor(t, page, 5*time.Second, "the missing content", func(status int, body string) bool {
		return status == 500 && strings.Contains(body, "site.json")
	})
	if err := os.CopyFS(dir, os.DirFS(backup)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, page, 5*time.Second, "the restored content", func(status int, body string) bool {
		return status == 200 && strings.Contains(body, "IL-0495")
	})

	// mv content content.old && mv content.new content, as a tool that
	// writes a whole new folder does.
	next := dir + ".new"
	if err := os.CopyFS(next, os.DirFS(backup)); err != nil {
		t.Fatal(err)
	}
	const title = "A title from the folder moved in"
	editCase(t, filepath.Join(next, "cases", "IL-0495.json"), func(c map[string]any) { c["title"].(map[string]any)["en"] = title })
	if err := os.Rename(dir, dir+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, dir); err != nil {
		t.Fatal(err)
	}
	waitFor(t, page, 5*time.Second, "the case from the moved-in folder", func(status int, body string) bool {
		return status == 200 && strings.Contains(body, title)
	})
	const again = "Edited after the move"
	editCase(t, filepath.Join(dir, "cases", "IL-0495.json"), func(c map[string]any) { c["title"].(map[string]any)["en"] = again })
	waitFor(t, page, 5*time.Second, "an edit in the moved-in folder", func(status int, body string) bool {
		return status == 200 && strings.Contains(body, again)
	})
	// The old folder, moved away, is no longer the content.
	v := r.srv.version()
	editCase(t, filepath.Join(dir+".old", "cases", "IL-0495.json"), func(c map[string]any) { c["title"].(map[string]any)["en"] = "old" })
	time.Sleep(300 * time.Millisecond)
	if r.srv.version() != v {
		t.Errorf("an edit in the folder moved away rebuilt the preview:\n%s", r.log.String())
	}
}

// TestErrorPageClipped: a file with many problems shows its first ones and
// how many more, on the page and in the terminal, and the count is all.
func TestErrorPageClipped(t *testing.T) {
	dir := repotest.ContentDir(t)
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: dir})
	editCase(t, filepath.Join(dir, "cases", "IL-0495.json"), func(c map[string]any) {
		for i := 0; i < 25; i++ {
			c[fmt.Sprintf("unknown%02d", i)] = 1
		}
	})
	waitFor(t, r.url+"/en/", 5*time.Second, "the clipped error page", func(status int, body string) bool {
		return status == 500 && strings.Contains(body, "25 problems") && strings.Contains(body, "unknown19: unknown field") &&
			!strings.Contains(body, "unknown20") && strings.Contains(body, "cases/IL-0495.json: and 5 more problems")
	})
	if log := r.log.String(); !strings.Contains(log, "cases/IL-0495.json: and 5 more problems") || strings.Contains(log, "unknown20") {
		t.Errorf("the terminal does not clip the report:\n%s", log)
	}
}
