package serve

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"incidentlib"
	"incidentlib/internal/library"
	"incidentlib/internal/repotest"
)

// TestEditRelatedLate: a saved edit to a case's story reaches the page
// without waiting for the related cases, which it changes the inputs of:
// the page shows the edit from a model that kept the related cases from
// before (it is stale), and the model that follows has them computed, equal
// to those of a library loaded afresh. The bounds are generous (a busy
// machine); bench-serve measures the time.
func TestEditRelatedLate(t *testing.T) {
	dir := repotest.ContentDir(t)
	r := start(t, Options{BuiltinTemplates: incidentlib.Templates(), BuiltinStatic: incidentlib.Static(), Content: dir})
	const title = "Edited for the late related cases"
	editCase(t, filepath.Join(dir, "cases", "IL-0495.json"), func(c map[string]any) {
		tt := c["title"].(map[string]any)
		tt["en"] = title + ": " + tt["en"].(string)
	})
	waitFor(t, r.url+"/en/cases/IL-0495/", time.Minute, "the edited title", func(status int, body string) bool {
		return status == 200 && strings.Contains(body, title)
	})
	deadline := time.Now().Add(2 * time.Minute)
	for r.srv.live.Current().lib.Stale() {
		if time.Now().After(deadline) {
			t.Fatalf("related cases still not computed after 2 minutes:\n%s", r.log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	log := r.log.String()
	t.Logf("%s", log)
	edit, late := strings.Index(log, "IL-0495"), strings.Index(log, "related cases computed")
	if edit < 0 || late < edit {
		t.Errorf("the log does not show the edit, then the related cases computed:\n%s", log)
	}
	cur := r.srv.live.Current()
	fsys, err := library.Content(dir)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := library.New(context.Background(), fsys, library.Options{Drafts: true})
	if err != nil || !fresh.Ready() {
		t.Fatalf("fresh library: %v %v", err, fresh.Diags.Items)
	}
	differ := 0
	for _, c := range fresh.Lib.Cases {
		if !reflect.DeepEqual(fresh.Related(c.ID), cur.lib.Related(c.ID)) {
			differ++
			if differ <= 3 {
				t.Errorf("%s: related cases differ from a fresh library's", c.ID)
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d cases' related cases differ", differ, len(fresh.Lib.Cases))
	}
}
