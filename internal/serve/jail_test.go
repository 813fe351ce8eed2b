//go:build unix

package serve

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"incidentlib"
	"incidentlib/internal/repotest"
)

// TestHostileContentAppears: a named pipe, a link out of the content and a
// link to /dev/zero appear in the content of a running preview. Every page
// names them, later saves are still read, they can be removed again, and
// the server stops when asked.
func TestHostileContentAppears(t *testing.T) {
	dir := repotest.ContentDir(t)
	secret := filepath.Join(t.TempDir(), "environ")
	os.WriteFile(secret, []byte(`{"CI_TOKEN": "s3cr3t"}`), 0o644)
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: dir})
	pipe := filepath.Join(dir, "cases", "IL-9003.json")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	// Were the pipe opened for reading, this frees the reader when the
	// test ends, so that a failure does not hold the test binary.
	t.Cleanup(func() {
		if f, err := os.OpenFile(pipe, os.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	os.Symlink(secret, filepath.Join(dir, "cases", "IL-9001.json"))
	os.Symlink("/dev/zero", filepath.Join(dir, "pages", "zero.en.md"))
	page := r.url + "/en/cases/IL-0495/"
	wants := []string{
		"cases/IL-9003.json: cannot read: a named pipe (FIFO)",
		"cases/IL-9001.json: cannot read: a symbolic link leading outside the content folder",
		"pages/zero.en.md: cannot read: a symbolic link leading outside the content folder",
	}
	waitFor(t, page, 30*time.Second, "the error page", func(status int, body string) bool {
		for _, w := range wants {
			if !strings.Contains(body, w) {
				return false
			}
		}
		return status == http.StatusInternalServerError && !strings.Contains(body, "s3cr3t")
	})
	// A save after the pipe appeared is still read.
	editCase(t, filepath.Join(dir, "cases", "IL-0495.json"), func(c map[string]any) { c["components"] = []any{"ingres"} })
	waitFor(t, page, 30*time.Second, "a later edit", func(status int, body string) bool {
		return strings.Contains(body, `unknown term "ingres"`)
	})
	for _, name := range []string{"cases/IL-9003.json", "cases/IL-9001.json", "pages/zero.en.md"} {
		os.Remove(filepath.Join(dir, name))
	}
	editCase(t, filepath.Join(dir, "cases", "IL-0495.json"), func(c map[string]any) { c["components"] = []any{"ingress"} })
	waitFor(t, page, 30*time.Second, "the page again", func(status int, body string) bool { return status == 200 })
	if err := r.stop(); err != nil {
		t.Errorf("shutdown: %v", err)
	}
}
