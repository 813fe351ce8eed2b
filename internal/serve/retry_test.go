package serve

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/repotest"
)

// TestReloadRetries: a save that cannot be read for a moment (too many
// open files) is read again by itself, without another save.
func TestReloadRetries(t *testing.T) {
	dir := repotest.CopyDir(t, "content")
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: dir})
	flaky := &repotest.FlakyFS{FS: cases.ContentFS(dir), Name: "cases/IL-0495.json", Fails: 2}
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
