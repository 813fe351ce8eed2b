package library

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/watch"
)

// Live is the live loop of the preview (package serve) and the MCP server
// (package mcpserver): it keeps the current state S, made from a Library,
// and after each burst of saves makes the next one, swaps it in and
// reports it; watch → reload → retry → swap → report. Files that could not
// be read for a reason that may pass by itself (too many open files, an
// I/O error: cases.Transient) are read again after a pause that doubles
// with each try, from half a second to a minute, so that a library that
// ran short of file descriptors for a moment recovers without waiting for
// the next save. A newer state (a save came) or the end of the loop's
// context ends the tries of the one before.
//
// Set the three functions, then call Start once and Run once.
type Live[S any] struct {
	// Next makes the state after cur (nil for the first) for a change.
	Next func(cur *S, c Change) *S
	// Library returns the library a state was made from.
	Library func(s *S) *Library
	// Swapped is called with the state before (nil for the first) and the
	// new current one, and what changed, for the terminal line. It runs
	// under the loop's lock, one at a time.
	Swapped func(prev, next *S, what string)

	mu  sync.Mutex // one change at a time
	cur atomic.Pointer[S]
}

// Change is what a save changed, as the next state is made for it.
type Change struct {
	Content []string // changed content paths, slash-separated, relative to the content folder
	Full    bool     // read all the content again
	Theme   bool     // a template or static file changed
}

// Current returns the current state.
func (l *Live[S]) Current() *S { return l.cur.Load() }

// Start makes the first state from all the content and the theme.
func (l *Live[S]) Start(what string) *S {
	return l.apply(Change{Full: true, Theme: true}, what, nil)
}

// Apply makes the state after the current one for c, swaps it in and
// reports it; a change of nothing keeps the current state. It returns
// the current state.
func (l *Live[S]) Apply(c Change, what string) *S { return l.apply(c, what, nil) }

// Replace swaps in make(cur) and reports it as what, while the current
// state cur is still only; make returning nil keeps cur. It reports whether
// it swapped. It is for a state finished in the background after it was
// swapped in (a library whose related cases came late, late.go).
func (l *Live[S]) Replace(only *S, make func(cur *S) *S, what string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	cur := l.cur.Load()
	if cur != only {
		return false
	}
	next := make(cur)
	if next == nil {
		return false
	}
	l.cur.Store(next)
	l.Swapped(cur, next, what)
	return true
}

// apply is Apply, only while the current state is only when only is set
// (else it returns nil).
func (l *Live[S]) apply(c Change, what string, only *S) *S {
	l.mu.Lock()
	defer l.mu.Unlock()
	cur := l.cur.Load()
	if only != nil && cur != only {
		return nil
	}
	if cur != nil && len(c.Content) == 0 && !c.Full && !c.Theme {
		return cur
	}
	if cur == nil || l.Library(cur).Lib == nil {
		c.Full = true
	}
	next := l.Next(cur, c)
	l.cur.Store(next)
	l.Swapped(cur, next, what)
	return next
}

// Run applies the changes w reports until ctx is done or w is closed,
// each followed by the retries of what it could not read; the current
// state's retries start first (the first load may have run short too).
func (l *Live[S]) Run(ctx context.Context, w *watch.Watcher) {
	l.retryLater(ctx, l.Current(), 0)
	w.Run(ctx, func(c watch.Change) {
		lib := l.Library(l.Current()).Lib
		what := c.Describe(func(file string) bool { return wasCase(lib, file) })
		next := l.Apply(Change{Content: c.Content, Full: c.Full, Theme: c.Templates}, what)
		l.retryLater(ctx, next, 0)
	})
}

// retryDelay is the pause before try number tries+1 of a read that
// failed for a passing reason.
func retryDelay(tries int) time.Duration {
	return min(time.Minute, 500*time.Millisecond<<min(tries, 7))
}

// retryLater reads again, after a pause, the files of s that failed for a
// passing reason, unless a newer state replaced s or ctx ended.
func (l *Live[S]) retryLater(ctx context.Context, s *S, tries int) {
	files := cases.Transient(l.Library(s).Diags)
	if len(files) == 0 {
		return
	}
	time.AfterFunc(retryDelay(tries), func() {
		if ctx.Err() != nil {
			return
		}
		full := false
		for _, f := range files {
			full = full || !cases.InCases(f)
		}
		next := l.apply(Change{Content: files, Full: full}, "read again: "+strings.Join(files, ", "), s)
		if next != nil {
			l.retryLater(ctx, next, tries+1)
		}
	})
}

// wasCase reports whether file is a case file of lib.
func wasCase(lib *cases.Library, file string) bool {
	if lib == nil {
		return false
	}
	for _, c := range lib.Cases {
		if c.File == file {
			return true
		}
	}
	return false
}
