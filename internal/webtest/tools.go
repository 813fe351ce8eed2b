package webtest

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

var (
	rootOnce sync.Once
	rootDir  string
	rootErr  error
)

// RepoRoot is the folder holding go.mod, found by walking up from the
// working directory (a package folder under `go test`, the repository
// under `go run`). node_modules lives there.
func RepoRoot() (string, error) {
	rootOnce.Do(func() {
		dir, err := os.Getwd()
		if err != nil {
			rootErr = err
			return
		}
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				rootDir = dir
				return
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				rootErr = errors.New("webtest: no go.mod in the working directory or any parent")
				return
			}
			dir = parent
		}
	})
	return rootDir, rootErr
}

// tool returns the absolute path of a file under the repository root and
// fails the test, pointing at `make test`, if it is not there.
func tool(t testing.TB, rel, what string) string {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, filepath.FromSlash(rel))
	if filepath.IsAbs(rel) {
		p = rel
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s is missing: %v; run `make test` (scripts/test-deps.sh installs it)", what, err)
	}
	return p
}

// absDir makes dir absolute and checks that it is a folder.
func absDir(t testing.TB, dir string) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		t.Fatalf("webtest: %v", err)
	}
	if !fi.IsDir() {
		t.Fatalf("webtest: %s is not a folder", abs)
	}
	return abs
}
