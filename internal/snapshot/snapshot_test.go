package snapshot

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"incidentlib"
	"incidentlib/internal/repotest"
	"incidentlib/internal/site"
)

// TestSearchOrgLabels checks the labels of the 조직 filter: an organisation
// as it writes its name (HubSpot, not 허브스팟) in both languages, a
// description translated, and the Korean spelling left to the documents,
// where it finds the case without being shown.
func TestSearchOrgLabels(t *testing.T) {
	fsys, err := Content(filepath.Join("..", "..", "content"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(context.Background(), fsys, Options{LoadTheme: func() (*site.Theme, error) {
		return site.LoadTheme(incidentlib.Templates(), incidentlib.Static())
	}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Site == nil {
		t.Fatal(s.Diags.Err(), s.Err)
	}
	docs, labels := s.SearchDocs()
	for id, want := range map[string][2]string{
		"hubspot":         {"HubSpot", "HubSpot"},
		"google-cloud":    {"Google Cloud", "Google Cloud"},
		"unnamed-company": {"Unnamed company", "이름을 밝히지 않은 회사"},
	} {
		if got := labels["orgs"][id]; got != want {
			t.Errorf("orgs label of %s = %q, want %q", id, got, want)
		}
	}
	found := false
	for _, d := range docs {
		if d.ID == "IL-0495" {
			found = d.OrgAlias == "허브스팟"
		}
	}
	if !found {
		t.Error("IL-0495's document has no 허브스팟 to be found by")
	}
}

// TestNext checks the three ways New makes the snapshot after a save: a
// case file read again on its own, with the other cases and the related
// cases kept; a theme edit, which keeps the library and parses the theme
// again; and content with an error, which leaves the site and the theme
// alone.
func TestNext(t *testing.T) {
	fsys := repotest.MapFS(t, "content")
	themes := 0
	loadTheme := func() (*site.Theme, error) {
		themes++
		return site.LoadTheme(incidentlib.Templates(), incidentlib.Static())
	}
	ctx := context.Background()
	first, err := New(ctx, fsys, Options{LoadTheme: loadTheme})
	if err != nil || first.Site == nil || themes != 1 {
		t.Fatalf("first snapshot: %v, site %v, %d themes parsed", err, first.Site != nil, themes)
	}
	if got := stageNames(first); got != "load theme site" {
		t.Errorf("first snapshot's stages = %q", got)
	}

	// The detection text edited (no input of related cases): only that
	// case is read again.
	file := "cases/IL-0495.json"
	old := fsys[file].Data
	fsys[file] = &fstest.MapFile{Data: bytes.Replace(old, []byte(`"detection":{"en":"`), []byte(`"detection":{"en":"Edited: `), 1)}
	next, err := New(ctx, fsys, Options{Previous: first, Changed: []string{file}, Theme: first.Theme})
	if err != nil || next.Site == nil {
		t.Fatalf("after an edit: %v %v %v", err, next.Diags.Err(), next.Err)
	}
	if got := stageNames(next); got != "reload site" || themes != 1 {
		t.Errorf("after an edit: stages %q, %d themes parsed", got, themes)
	}
	edited, kept := 0, 0
	for _, c := range next.Lib.Cases {
		switch prev := first.Lib.ByID[c.ID]; {
		case c.ID == "IL-0495" && c != prev && strings.HasPrefix(c.Detection.En, "Edited: "):
			edited++
		case c.ID != "IL-0495" && c == prev:
			kept++
		}
	}
	if edited != 1 || kept != len(first.Lib.Cases)-1 {
		t.Errorf("after an edit: %d cases edited, %d of %d kept", edited, kept, len(first.Lib.Cases)-1)
	}
	if a, b := first.Site.Related("IL-0495"), next.Site.Related("IL-0495"); len(a) == 0 || &a[0] != &b[0] {
		t.Error("an edit of the detection text did not keep the related cases of the snapshot before")
	}

	// A theme edit: no content read, the theme parsed again.
	themed, err := New(ctx, fsys, Options{Previous: next, LoadTheme: loadTheme})
	if err != nil || themed.Lib != next.Lib || themes != 2 || stageNames(themed) != "theme site" {
		t.Errorf("a theme edit: %v, same library %v, %d themes parsed, stages %q", err, themed.Lib == next.Lib, themes, stageNames(themed))
	}

	// An error in a case: no site, no theme parsed.
	fsys[file] = &fstest.MapFile{Data: []byte("{")}
	broken, err := New(ctx, fsys, Options{Previous: themed, Changed: []string{file}, LoadTheme: loadTheme})
	if err != nil || broken.Site != nil || broken.Diags.Errors() == 0 || themes != 2 {
		t.Errorf("a broken case: %v, site %v, %d errors, %d themes parsed", err, broken.Site != nil, broken.Diags.Errors(), themes)
	}

	// A context that has ended stops New.
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := New(done, fsys, Options{LoadTheme: loadTheme}); !errors.Is(err, context.Canceled) {
		t.Errorf("New with an ended context = %v, want context.Canceled", err)
	}
}

func stageNames(s *Snapshot) string {
	var names []string
	for _, st := range s.Stages {
		names = append(names, st.Name)
	}
	return strings.Join(names, " ")
}

// gatedFS holds every Open until gate is closed, or until the wait is
// over (then the test has failed already).
type gatedFS struct {
	fs.FS
	gate <-chan struct{}
	wait time.Duration
	late *atomic.Bool
}

func (g gatedFS) Open(name string) (fs.File, error) {
	if g.late.Load() {
		return g.FS.Open(name)
	}
	select {
	case <-g.gate:
	case <-time.After(g.wait):
		g.late.Store(true)
	}
	return g.FS.Open(name)
}

// TestThemeAlongside checks that a first snapshot parses the theme while
// the content loads, and that a theme error still comes only after the
// content has loaded without errors.
func TestThemeAlongside(t *testing.T) {
	gate := make(chan struct{})
	var late atomic.Bool
	// The content cannot be read before the theme has started parsing; a
	// New that parses after the loading waits the whole minute.
	fsys := gatedFS{repotest.MapFS(t, "content"), gate, time.Minute, &late}
	var once sync.Once
	s, err := New(context.Background(), fsys, Options{LoadTheme: func() (*site.Theme, error) {
		once.Do(func() { close(gate) })
		return site.LoadTheme(incidentlib.Templates(), incidentlib.Static())
	}})
	if err != nil || s.Site == nil {
		t.Fatalf("New: %v, site %v", err, s != nil && s.Site != nil)
	}
	if late.Load() {
		t.Error("the content was read before the theme had started parsing")
	}

	// Broken content and a broken theme: the content's errors, and no
	// theme error.
	broken := repotest.MapFS(t, "content")
	broken["cases/IL-0495.json"] = &fstest.MapFile{Data: []byte("{")}
	s, err = New(context.Background(), broken, Options{LoadTheme: func() (*site.Theme, error) {
		return nil, errors.New("a broken template")
	}})
	if err != nil || s.Diags.Errors() == 0 || s.Err != nil || s.Site != nil {
		t.Errorf("broken content and theme: %v, %d content errors, theme error %v", err, s.Diags.Errors(), s.Err)
	}

	// Good content and a broken theme: the theme's error.
	s, err = New(context.Background(), repotest.MapFS(t, "content"), Options{LoadTheme: func() (*site.Theme, error) {
		return nil, errors.New("a broken template")
	}})
	if err != nil || s.Err == nil || s.Site != nil || stageNames(s) != "load theme" {
		t.Errorf("a broken theme: %v, theme error %v, stages %q", err, s.Err, stageNames(s))
	}
}
