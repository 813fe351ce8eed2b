package e2e

import (
	"path/filepath"
	"testing"

	"incidentlib/internal/gencases"
	"incidentlib/internal/webtest"
)

// TestGeneratedLibrary builds a generated library of 1,000 cases and checks
// every link of it, so that speed never comes at the cost of a broken site.
//
// It does not run in parallel with the browser tests: linkinator over
// thousands of pages takes both cores, and the browser tests' waits are
// timed.
func TestGeneratedLibrary(t *testing.T) {
	site(t) // builds the command
	root, _ := webtest.RepoRoot()
	dir := t.TempDir()
	content, out := filepath.Join(dir, "content"), filepath.Join(dir, "public")
	if err := gencases.WriteDir(content, gencases.Options{N: 1000, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	if o, err := run(root, filepath.Join(tmpDir, "incidentlib"), "build", "-content", content, "-out", out); err != nil {
		t.Fatalf("build of 1,000 generated cases: %v\n%s", err, o)
	}
	for _, l := range webtest.Links(t, out) {
		t.Errorf("broken link: %s", l)
	}
}
