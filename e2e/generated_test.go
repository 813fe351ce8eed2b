package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"incidentlib"
	"incidentlib/internal/build"
	"incidentlib/internal/gencases"
	"incidentlib/internal/webtest"
)

var (
	genOnce sync.Once
	genDir  string // the built site
	genSrc  string // its content folder
	genErr  string
)

// generated returns a generated library of 1,000 cases built once for the
// package (TestGeneratedLibrary and TestSearchByteBudgets share it), or
// fails the test with the reason there is none.
func generated(t *testing.T) string {
	t.Helper()
	webtest.Heavy(t, "builds a library of 1,000 cases")
	genOnce.Do(func() {
		content, out := filepath.Join(tmpDir, "gen-content"), filepath.Join(tmpDir, "gen-public")
		if err := gencases.WriteDir(content, gencases.Options{N: 1000, Seed: 1}); err != nil {
			genErr = err.Error()
			return
		}
		if _, diags, err := build.Run(context.Background(), build.Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out}); err != nil {
			genErr = fmt.Sprintf("build of 1,000 generated cases: %v\n%v", err, diags)
			return
		}
		genDir, genSrc = out, content
	})
	if genErr != "" {
		t.Fatalf("no generated library: %s", genErr)
	}
	return genDir
}

// TestGeneratedLibrary checks every link of every page of a generated
// library of 1,000 cases (3,700 pages), so that speed never comes at the
// cost of a broken site. It reads the pages in process (webtest.LocalLinks,
// held to linkinator's findings in webtest's tests) rather than crawling
// them with linkinator over HTTP, which took six minutes on a quiet
// machine; linkinator still crawls the shipped site (TestLinks) and the
// sub-path build (TestSubPath).
func TestGeneratedLibrary(t *testing.T) {
	t.Parallel()
	for _, l := range webtest.LocalLinks(t, generated(t)) {
		t.Errorf("broken link: %s", l)
	}
}
