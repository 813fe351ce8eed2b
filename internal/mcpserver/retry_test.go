package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"incidentlib"
	"incidentlib/internal/cases"
	"incidentlib/internal/repotest"
)

// TestReloadRetries: a save that cannot be read for a moment (too many
// open files) is read again by itself, without another save, so the tools
// do not answer with the error until someone saves again.
func TestReloadRetries(t *testing.T) {
	dir := repotest.CopyDir(t, "content")
	log := &repotest.Log{}
	srv, err := New(Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: dir, Debounce: 20 * time.Millisecond, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	srv.reload.Lock()
	srv.fsys = &repotest.FlakyFS{FS: cases.ContentFS(dir), Name: "cases/IL-0495.json", Fails: 2}
	srv.reload.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	wait, err := srv.watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); wait() }()

	file := filepath.Join(dir, "cases", "IL-0495.json")
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const title = "Edited while files ran short"
	edited := strings.Replace(string(orig), `"title":{"en":"`, `"title":{"en":"`+title, 1)
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	// The retries wait half a second, then a second; a loaded machine may
	// take longer to reload, so the deadline is generous.
	for t0 := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		m := srv.cur.Load()
		if c := m.lib.ByID["IL-0495"]; m.site != nil && c != nil && strings.HasPrefix(c.Title.En, title) {
			break
		}
		if time.Since(t0) > 60*time.Second {
			t.Fatalf("the edit was never read again; log:\n%s", log.String())
		}
	}
	if l := log.String(); !strings.Contains(l, "too many open files") || !strings.Contains(l, "read again") {
		t.Errorf("the log does not show the failed read and the retry:\n%s", l)
	}
}
