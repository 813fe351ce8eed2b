package library

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/repotest"
	"incidentlib/internal/watch"
)

// liveState is a state of a test loop: the library, and how many were
// made before it.
type liveState struct {
	lib *Library
	n   int
}

// TestLiveRetries: a save that cannot be read for a moment (too many open
// files) is read again by the loop itself, without another save, with the
// swaps reported in order; the preview and the MCP server both run this
// loop.
func TestLiveRetries(t *testing.T) {
	dir := repotest.ContentDir(t)
	// The first load reads every file; the saves after it find the case
	// file unreadable twice.
	var src fs.FS = cases.ContentFS(dir)
	var mu sync.Mutex
	var log bytes.Buffer
	live := &Live[liveState]{
		Next: func(cur *liveState, c Change) *liveState {
			opt := Options{Changed: c.Content, ReadAll: c.Full}
			n := 0
			if cur != nil {
				opt.Previous, n = cur.lib, cur.n+1
			}
			l, err := New(context.Background(), src, opt)
			if err != nil {
				t.Error(err)
			}
			return &liveState{l, n}
		},
		Library: func(s *liveState) *Library { return s.lib },
		Swapped: func(prev, next *liveState, what string) {
			mu.Lock()
			defer mu.Unlock()
			if prev != nil && next.n != prev.n+1 {
				t.Errorf("swapped %d after %d", next.n, prev.n)
			}
			fmt.Fprintf(&log, "%s: %d errors %v\n", what, next.lib.Diags.Errors(), next.lib.Diags.Err())
		},
	}
	first := live.Start("started")
	if !first.lib.Ready() || live.Current() != first {
		t.Fatal("the first state is not ready and current")
	}
	src = &repotest.FlakyFS{FS: src, Name: "cases/IL-0495.json", Fails: 2}
	w, err := watch.Content(dir, cases.Reads, 20*time.Millisecond, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); live.Run(ctx, w) }()
	defer func() { cancel(); w.Close(); <-done }()

	file := filepath.Join(dir, "cases", "IL-0495.json")
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const title = "Edited while files ran short"
	edited := strings.Replace(string(orig), `"title":{"en":"`, `"title":{"en":"`+title, 1)
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	// The retries wait half a second, then a second; a loaded machine may
	// take longer to reload, so the deadline is generous: the test waits
	// for what happens, not for a time.
	for t0 := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		s := live.Current()
		if c := s.lib.Lib.ByID["IL-0495"]; s.lib.Ready() && c != nil && strings.HasPrefix(c.Title.En, title) {
			break
		}
		if time.Since(t0) > 2*time.Minute {
			mu.Lock()
			t.Fatalf("the edit was never read again; log:\n%s", log.String())
		}
	}
	// A change of nothing keeps the state.
	if cur := live.Current(); live.Apply(Change{}, "nothing") != cur {
		t.Error("a change of nothing made a new state")
	}
	mu.Lock()
	defer mu.Unlock()
	if l := log.String(); !strings.Contains(l, "too many open files") || !strings.Contains(l, "read again: cases/IL-0495.json") {
		t.Errorf("the log does not show the failed read and the retry:\n%s", l)
	}
}
