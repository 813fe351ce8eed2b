package build

import (
	"context"
	"path/filepath"
	"testing"

	"incidentlib"
	"incidentlib/internal/gencases"
)

// TestNoEngineFallbacks builds the shipped content and a generated library
// and reads the gauge of the template engines: every template of the theme
// compiles with htmlexec, and no page is handed back to html/template at run
// time. A fallback writes the same bytes, only slower, so nothing else
// would notice one.
func TestNoEngineFallbacks(t *testing.T) {
	t.Parallel() // no global state: runs beside the other large builds
	dir := t.TempDir()
	generated := filepath.Join(dir, "generated")
	if err := gencases.WriteDir(generated, gencases.Options{N: generatedCases(), Seed: 2}); err != nil {
		t.Fatal(err)
	}
	for _, content := range []string{sharedLibrary(t), generated} {
		st, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: filepath.Join(dir, "out-"+filepath.Base(content))})
		if err != nil {
			t.Fatal(err)
		}
		e := st.Engines
		if len(e.Uncompiled) > 0 || e.Compiled == 0 {
			t.Errorf("%s: htmlexec compiled %d templates and left %v to the standard library", content, e.Compiled, e.Uncompiled)
		}
		if e.Fallbacks != 0 {
			t.Errorf("%s: %d pages were handed back to html/template at run time", content, e.Fallbacks)
		}
	}
}

// generatedCases is the size of the generated library of
// TestNoEngineFallbacks: 300 cases, 30 with -short (the shipped content,
// or the small library with -short, is built too either way).
func generatedCases() int {
	if testing.Short() {
		return 30
	}
	return 300
}
