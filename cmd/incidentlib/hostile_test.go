//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"incidentlib/internal/repotest"
)

// hostileContent copies the shipped content and adds to it what a pull
// request can carry: links to a secret outside the folder and to
// /dev/zero, and named pipes, as a case, a page and vocab.json.
func hostileContent(t *testing.T) (dir, secret string) {
	t.Helper()
	top := t.TempDir()
	dir = repotest.ContentDir(t)
	secret = "CI_TOKEN=s3cr3t"
	os.WriteFile(filepath.Join(top, "environ"), []byte(`{"`+secret+`": 1}`), 0o644)
	for name, to := range map[string]string{
		"cases/IL-9001.json": filepath.Join(top, "environ"),
		"cases/IL-9002.json": "/dev/zero",
		"pages/leak.en.md":   filepath.Join(top, "environ"),
	} {
		if err := os.Symlink(to, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(filepath.Join(dir, "vocab.json"))
	for _, name := range []string{"cases/IL-9003.json", "pages/pipe.en.md", "vocab.json"} {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, secret
}

// runLimited runs the command and fails the test if it has not ended
// within ten minutes, far beyond a build on a busy machine: a named pipe or
// a device opened for reading would hold it for ever.
func runLimited(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(args, &stdout, &stderr) }()
	select {
	case code := <-done:
		return code, stdout.String() + stderr.String()
	case <-time.After(10 * time.Minute):
		t.Fatalf("%v did not end: it waits on a named pipe or reads a device", args)
		return 0, ""
	}
}

// TestHostileContent: check and build end on a content folder holding
// links out of it, a device and named pipes; each is an error naming the
// file, nothing from outside the folder is printed, and nothing is built.
func TestHostileContent(t *testing.T) {
	dir, _ := hostileContent(t)
	out := filepath.Join(t.TempDir(), "public")
	for _, args := range [][]string{{"check", "-content", dir}, {"build", "-content", dir, "-out", out}} {
		code, got := runLimited(t, args...)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1", args[0], code)
		}
		for _, want := range []string{
			"cases/IL-9001.json: cannot read: a symbolic link leading outside the content folder",
			"cases/IL-9002.json: cannot read: a symbolic link leading outside the content folder",
			"cases/IL-9003.json: cannot read: a named pipe (FIFO)",
			"pages/leak.en.md: cannot read: a symbolic link leading outside the content folder",
			"pages/pipe.en.md: cannot read: a named pipe (FIFO)",
			"vocab.json: cannot read: a named pipe (FIFO)",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: the report lacks %q:\n%s", args[0], want, got)
			}
		}
		if strings.Contains(got, "s3cr3t") {
			t.Errorf("%s prints a file from outside the content folder:\n%s", args[0], got)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("build wrote its output despite the errors")
	}
}

// TestNewStaysInside: new does not write through a cases folder that
// links outside the content.
func TestNewStaysInside(t *testing.T) {
	dir := repotest.ContentDir(t)
	outside := t.TempDir()
	os.RemoveAll(filepath.Join(dir, "cases"))
	if err := os.Symlink(outside, filepath.Join(dir, "cases")); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"new", "-content", dir, "IL-0900"}, &stdout, &stderr); code == 0 {
		t.Errorf("new wrote through a link out of the content: %s", stdout.String())
	}
	if entries, _ := os.ReadDir(outside); len(entries) > 0 {
		t.Errorf("new wrote %s outside the content folder", entries[0].Name())
	}
}

// TestNewInEmptyFolder: new in a content folder that has no cases/ and no
// schema/ yet makes both; a schema folder that links outside the content
// is refused like a cases folder.
func TestNewInEmptyFolder(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := run([]string{"new", "IL-0600", "-content", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("new in an empty folder: status %d: %s", code, stderr.String())
	}
	for _, f := range []string{"cases/IL-0600.json", "schema/case.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("new did not write %s: %v", f, err)
		}
	}

	dir, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "schema")); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"new", "-content", dir, "IL-0601"}, &stdout, &stderr); code == 0 {
		t.Errorf("new wrote the schema through a link out of the content: %s", stdout.String())
	}
	if entries, _ := os.ReadDir(outside); len(entries) > 0 {
		t.Errorf("new wrote %s outside the content folder", entries[0].Name())
	}
	if !strings.Contains(stderr.String(), "cannot write "+filepath.Join(dir, "schema", "case.json")) {
		t.Errorf("the error does not name the file: %s", stderr.String())
	}
}
