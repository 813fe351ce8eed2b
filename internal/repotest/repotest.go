// Package repotest gives tests copies of the repository's own folders
// (content, templates): in memory, for loading, or on disk, for tests that
// edit files or run the command. Tests may change the copies freely.
package repotest

import (
	"flag"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"
)

// Dir returns a folder of the repository, such as "content". The
// repository is found from this file's own place in it, so the answer does
// not depend on which package's test is running.
func Dir(t testing.TB, name string) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("repotest: cannot tell where the repository is")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", name)
}

// MapFS reads every file of a repository folder into memory.
func MapFS(t testing.TB, name string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	root := Dir(t, name)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		m[filepath.ToSlash(rel)] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// CopyDir copies a repository folder into a new temporary folder and
// returns its path.
func CopyDir(t testing.TB, name string) string {
	t.Helper()
	to := filepath.Join(t.TempDir(), name)
	CopyTree(t, Dir(t, name), to)
	return to
}

// CopyTree copies the folder from, with everything under it, to the
// folder to (made when missing).
func CopyTree(t testing.TB, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// FlakyFS fails to open the file Name, as a process out of file
// descriptors does, Fails times; then it opens it from FS.
type FlakyFS struct {
	fs.FS
	Name  string
	mu    sync.Mutex
	Fails int
}

// Open opens name from FS, or fails with EMFILE while failures are left.
func (f *FlakyFS) Open(name string) (fs.File, error) {
	f.mu.Lock()
	fail := name == f.Name && f.Fails > 0
	if fail {
		f.Fails--
	}
	f.mu.Unlock()
	if fail {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EMFILE}
	}
	return f.FS.Open(name)
}

// Log is a log that a server writes from its goroutines while the test
// reads it.
type Log struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *Log) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *Log) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Pieces joins n pieces drawn at random by r: the random texts of tests that
// hold a fast path to its plain form, made of the pieces that matter to it.
func Pieces(r *rand.Rand, pieces []string, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// update is the repository's one -update flag: every package with golden
// files under testdata rewrites them when it is set (go test
// ./internal/site -update), and reviews the diff after.
var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// Update reports whether the golden files are to be rewritten.
func Update() bool { return *update }
