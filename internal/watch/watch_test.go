package watch

import (
	"context"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

func TestScratch(t *testing.T) {
	for name, want := range map[string]bool{
		"IL-0495.json": false, "case.html": false, ".IL-0495.json.swp": true, "IL-0495.json~": true,
		"4913": true, "#case.html#": true, "site.css": false, "x.tmp": true,
	} {
		if scratch(name) != want {
			t.Errorf("scratch(%q) = %v", name, !want)
		}
	}
}

// TestOverflowReadsAll: when the system drops events (its queue
// overflowed), what they named is unknown, so the change that follows
// reads all the content and the theme again: a preview that reads only the
// files a save names would otherwise miss a case added meanwhile.
func TestOverflowReadsAll(t *testing.T) {
	content, theme := t.TempDir(), t.TempDir()
	w, err := New([]Root{{Kind: "content", Dir: content, Name: "content"}, {Kind: "templates", Dir: theme, Name: "templates"}}, 10*time.Millisecond, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	got := make(chan Change, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go w.Run(ctx, func(c Change) { got <- c })
	w.fsw.Errors <- fsnotify.ErrEventOverflow
	select {
	case c := <-got:
		if !c.Full || !c.Templates {
			t.Errorf("after lost events: %+v, want everything read again", c)
		}
	case <-time.After(time.Minute):
		t.Fatal("no change after lost events")
	}
}
