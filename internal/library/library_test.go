package library

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"incidentlib/internal/gencases"
	"incidentlib/internal/repotest"
	"incidentlib/internal/search"
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
	l, err := New(context.Background(), fsys, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !l.Ready() {
		t.Fatal(l.Diags.Err())
	}
	labels := l.Topics().SearchLabels()
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
	for _, d := range search.Docs(l.Lib) {
		if d.ID == "IL-0495" {
			found = d.OrgAlias == "허브스팟"
		}
	}
	if !found {
		t.Error("IL-0495's document has no 허브스팟 to be found by")
	}
}

// TestNext checks the three ways New makes the library after a save: a
// case file read again on its own, with the other cases and the related
// cases kept; no content change (a theme edit), which keeps the content as
// it is; and content with an error, which derives nothing.
func TestNext(t *testing.T) {
	fsys := repotest.MapFS(t, "content")
	ctx := context.Background()
	opt := Options{}
	first, err := New(ctx, fsys, opt)
	if err != nil || !first.Ready() {
		t.Fatalf("first library: %v, ready %v", err, first != nil && first.Ready())
	}
	if got := stageNames(first); got != "load derive" {
		t.Errorf("first library's stages = %q", got)
	}

	// The detection text edited (no input of related cases): only that
	// case is read again.
	file := "cases/IL-0495.json"
	old := fsys[file].Data
	fsys[file] = &fstest.MapFile{Data: bytes.Replace(old, []byte(`"detection":{"en":"`), []byte(`"detection":{"en":"Edited: `), 1)}
	next, err := New(ctx, fsys, Options{Previous: first, Changed: []string{file}})
	if err != nil || !next.Ready() {
		t.Fatalf("after an edit: %v %v", err, next.Diags.Err())
	}
	if got := stageNames(next); got != "edit derive" {
		t.Errorf("after an edit: stages %q", got)
	}
	// Every other case is kept, those with warnings too: their warnings
	// are kept with them (cases.ReloadEdited).
	edited, kept, keep := 0, 0, 0
	for _, c := range next.Lib.Cases {
		if c.ID != "IL-0495" {
			keep++
		}
		switch prev := first.Lib.ByID[c.ID]; {
		case c.ID == "IL-0495" && c != prev && strings.HasPrefix(c.Detection.En, "Edited: "):
			edited++
		case c.ID != "IL-0495" && c == prev:
			kept++
		}
	}
	if edited != 1 || kept != keep || keep < len(first.Lib.Cases)/2 {
		t.Errorf("after an edit: %d cases edited, %d of %d kept (%d cases)", edited, kept, keep, len(first.Lib.Cases))
	}
	if a, b := first.Related("IL-0495"), next.Related("IL-0495"); len(a) == 0 || &a[0] != &b[0] {
		t.Error("an edit of the detection text did not keep the related cases of the library before")
	}

	// Nothing changed in the content: the same cases.
	same, err := New(ctx, fsys, Options{Previous: next})
	if err != nil || same.Lib != next.Lib || stageNames(same) != "derive" {
		t.Errorf("no content change: %v, same content %v, stages %q", err, same.Lib == next.Lib, stageNames(same))
	}

	// An error in a case: nothing derived.
	fsys[file] = &fstest.MapFile{Data: []byte("{")}
	broken, err := New(ctx, fsys, Options{Previous: same, Changed: []string{file}})
	if err != nil || broken.Ready() || broken.Diags.Errors() == 0 {
		t.Errorf("a broken case: %v, ready %v, %d errors", err, broken.Ready(), broken.Diags.Errors())
	}

	// A context that has ended stops New.
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := New(done, fsys, opt); !errors.Is(err, context.Canceled) {
		t.Errorf("New with an ended context = %v, want context.Canceled", err)
	}
}

func stageNames(l *Library) string {
	var names []string
	for _, st := range l.Stages {
		names = append(names, st.Name)
	}
	return strings.Join(names, " ")
}

// BenchmarkNew makes a library of 1,000 generated cases in a folder on
// disk: the loading, the checks and the deriving (topics, narrative
// words, related cases), everything a build waits for before its pages
// start besides the theme.
func BenchmarkNew(b *testing.B) {
	dir := b.TempDir()
	if err := gencases.WriteDir(dir, gencases.Options{N: 1000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	fsys, err := Content(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		l, err := New(context.Background(), fsys, Options{})
		if err != nil || !l.Ready() {
			b.Fatal(err, l.Diags.Err())
		}
	}
}
