package repotest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// SmallCases are the cases of the small library: cases of every facet,
// with and without action items and affected versions, two pairs that name
// each other as related, and the withdrawn IL-0037; none names a case left
// out, so that the small library checks clean and its site has every kind
// of page of the whole one.
var SmallCases = []string{"IL-0011", "IL-0037", "IL-0053", "IL-0081", "IL-0338", "IL-0495", "IL-0630", "IL-0631"}

// SmallMapFS is MapFS of the content folder with only SmallCases among its
// cases: the settings, vocabulary, prose and topics of the whole library,
// at a tenth of the cases. Tests that render or build whole sites to check
// how they are written, not how many cases fill them, read it under
// -short (go test -short, the quick loop); the full run reads the whole
// library.
func SmallMapFS(t testing.TB) fstest.MapFS {
	t.Helper()
	m := MapFS(t, "content")
	for name := range m {
		if isLeftOut(name) {
			delete(m, name)
		}
	}
	return m
}

// SmallDir is CopyDir of the content folder with only SmallCases among its
// cases, on disk (see SmallMapFS).
func SmallDir(t testing.TB) string {
	t.Helper()
	to := CopyDir(t, "content")
	dir := filepath.Join(to, "cases")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if isLeftOut("cases/" + e.Name()) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	return to
}

// ContentMapFS is the content folder in memory: SmallMapFS under -short,
// else all of it.
func ContentMapFS(t testing.TB) fstest.MapFS {
	t.Helper()
	if testing.Short() {
		return SmallMapFS(t)
	}
	return MapFS(t, "content")
}

// ContentDir is a copy of the content folder on disk: SmallDir under
// -short, else all of it.
func ContentDir(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		return SmallDir(t)
	}
	return CopyDir(t, "content")
}

// isLeftOut reports whether the content path name is a case file of a
// case not in SmallCases.
func isLeftOut(name string) bool {
	id, ok := strings.CutPrefix(name, "cases/")
	if !ok || !strings.HasSuffix(id, ".json") || strings.Contains(id, "/") {
		return false
	}
	return !slices.Contains(SmallCases, strings.TrimSuffix(id, ".json"))
}

// ContentFolder is the content folder to read, never to write: the
// repository's own, or under -short a copy of the small library
// (SmallDir).
func ContentFolder(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		return SmallDir(t)
	}
	return Dir(t, "content")
}
