package watch

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestContentThroughLink (#39 row 15): a content folder given as a
// symbolic link is watched where it leads: a save in a folder of it is
// seen, by its path inside the content.
func TestContentThroughLink(t *testing.T) {
	top := t.TempDir()
	real := filepath.Join(top, "real")
	os.MkdirAll(filepath.Join(real, "cases"), 0o755)
	link := filepath.Join(top, "content")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	w, err := Content(link, func(string) bool { return true }, 0, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	changes := make(chan Change, 8)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go w.Run(ctx, func(c Change) { changes <- c })
	os.WriteFile(filepath.Join(real, "cases", "IL-0001.json"), []byte("{}"), 0o644)
	deadline := time.After(2 * time.Minute) // a hang, not a busy machine
	for {
		select {
		case c := <-changes:
			if slices.Contains(c.Content, "cases/IL-0001.json") {
				return
			}
		case <-deadline:
			t.Fatal("a save in the content, reached through a link, was never seen")
		}
	}
}
