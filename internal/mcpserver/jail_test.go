//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"incidentlib/internal/repotest"
)

// TestLoaderJail: the MCP server loads a content folder holding a named
// pipe, a link out of it and a link to /dev/zero without waiting on them,
// and reports each with its file.
func TestLoaderJail(t *testing.T) {
	dir := repotest.ContentDir(t)
	secret := filepath.Join(t.TempDir(), "environ")
	os.WriteFile(secret, []byte(`{"CI_TOKEN": "s3cr3t"}`), 0o644)
	pipe := filepath.Join(dir, "cases", "IL-9003.json")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // frees a reader of the pipe, should there be one
		if f, err := os.OpenFile(pipe, os.O_RDWR|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	os.Symlink(secret, filepath.Join(dir, "cases", "IL-9001.json"))
	os.Remove(filepath.Join(dir, "site.json"))
	os.Symlink("/dev/zero", filepath.Join(dir, "site.json"))
	log := &repotest.Log{}
	done := make(chan error, 1)
	go func() {
		_, err := New(Options{Content: dir, Log: log})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Minute):
		t.Fatal("New did not return: it waits on a named pipe or reads a device")
	}
	got := log.String()
	for _, want := range []string{
		"cases/IL-9003.json: cannot read: a named pipe (FIFO)",
		"cases/IL-9001.json: cannot read: a symbolic link leading outside the content folder",
		"site.json: cannot read: a symbolic link leading outside the content folder",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the log lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "s3cr3t") {
		t.Errorf("the log shows a file from outside the content folder:\n%s", got)
	}
}
