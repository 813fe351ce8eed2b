package serve

import (
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/repotest"
)

// flakyFS fails to open one file, as a process out of file descriptors
// does, a given number of times.
type flakyFS struct {
	fs.FS
	name  string
	mu    sync.Mutex
	fails int
}

func (f *flakyFS) Open(name string) (fs.File, error) {
	f.mu.Lock()
	fail := name == f.name && f.fails > 0
	if fail {
		f.fails--
	}
	f.mu.Unlock()
	if fail {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EMFILE}
	}
	return f.FS.Open(name)
}

// TestReloadRetries: a save that cannot be read for a moment (too many
// open files) is read again by itself, without another save.
func TestReloadRetries(t *testing.T) {
	dir := repotest.CopyDir(t, "content")
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: dir})
	flaky := &flakyFS{FS: cases.ContentFS(dir), name: "cases/IL-0495.json", fails: 2}
	r.srv.rebuild.Lock()
	r.srv.content = flaky
	r.srv.rebuild.Unlock()
	const title = "Edited while files ran short"
	editCase(t, filepath.Join(dir, "cases", "IL-0495.json"), func(c map[string]any) { c["title"].(map[string]any)["en"] = title })
	page := r.url + "/en/cases/IL-0495/"
	waitFor(t, page, 30*time.Second, "the page after the retries", func(status int, body string) bool {
		return status == http.StatusOK && strings.Contains(body, title)
	})
	if log := r.log.String(); !strings.Contains(log, "too many open files") || !strings.Contains(log, "read again") {
		t.Errorf("the terminal does not show the failed read and the retry:\n%s", log)
	}
}
