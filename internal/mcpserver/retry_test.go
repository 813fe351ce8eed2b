package mcpserver

import (
	"bytes"
	"context"
	"io/fs"
	"os"
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

// syncBuffer is a log that the reloads write while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestReloadRetries: a save that cannot be read for a moment (too many
// open files) is read again by itself, without another save, so the tools
// do not answer with the error until someone saves again.
func TestReloadRetries(t *testing.T) {
	dir := repotest.CopyDir(t, "content")
	log := &syncBuffer{}
	srv, err := New(Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: dir, Debounce: 20 * time.Millisecond, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	srv.reload.Lock()
	srv.fsys = &flakyFS{FS: cases.ContentFS(dir), name: "cases/IL-0495.json", fails: 2}
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
