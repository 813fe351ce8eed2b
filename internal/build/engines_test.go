package build

import (
	"context"
	"path/filepath"
	"testing"

	"incidentlib"
	"incidentlib/internal/gencases"
	"incidentlib/internal/repotest"
)

// TestNoEngineFallbacks builds the shipped content and a generated library
// and reads the gauge of the template engines: every template of the theme
// compiles with htmlexec, and no page is handed back to html/template at run
// time. A fallback writes the same bytes, only slower, so nothing else
// would notice one.
func TestNoEngineFallbacks(t *testing.T) {
	dir := t.TempDir()
	generated := filepath.Join(dir, "generated")
	if err := gencases.WriteDir(generated, gencases.Options{N: 300, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	for _, content := range []string{repotest.CopyDir(t, "content"), generated} {
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
