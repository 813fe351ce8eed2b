// Package watch reports saves in the folders a long-running command reads:
// the preview (package serve) watches its content, templates and static
// folders, the MCP server (package mcpserver) its content folder, both with
// a Watcher, so that both see a save the same way. A burst of events (an
// editor's save, a git checkout) becomes one Change; the content paths it
// names are those the caller's Root.Reads takes (the loader's,
// cases.Reads). It knows nothing of the library: a leaf under the live
// loop (library.Live).
package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watcher watches folders for saves and reports them in bursts.
type Watcher struct {
	roots    []Root
	debounce time.Duration
	fsw      *fsnotify.Watcher
	logf     func(format string, args ...any)
}

// Content watches the content folder dir, every folder under it and
// folders made in it later, for changes to the files reads takes. A burst
// of events ends after debounce without one (0 means 50 ms); logf receives
// the watcher's own errors. Watching starts now, so a save made after
// Content returns is never missed.
func Content(dir string, reads func(rel string) bool, debounce time.Duration, logf func(format string, args ...any)) (*Watcher, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	return New([]Root{{Kind: "content", Dir: abs, Name: dir, Reads: reads}}, debounce, logf)
}

// Root is a watched folder and what a change in it means.
type Root struct {
	Kind string // "content", "templates" or "static"
	Dir  string // absolute
	Name string // as given, for messages
	// Reads says which paths of a content folder (slash-separated,
	// relative to it) the loader reads; changes to others are left out.
	Reads func(rel string) bool
}

// New watches every folder under the roots. inotify and its kin
// watch one folder, not a tree, so each subfolder is added, and folders
// created later are added when they appear.
func New(roots []Root, debounce time.Duration, logf func(format string, args ...any)) (*Watcher, error) {
	if debounce <= 0 {
		debounce = 50 * time.Millisecond
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watching files: %w", err)
	}
	roots = slices.Clone(roots)
	for i, r := range roots {
		// A root given as a symbolic link (-content pointing at a checkout
		// elsewhere) is watched where it leads: the walk does not enter a
		// link, so nothing under it was watched and no save was seen.
		if dir, err := filepath.EvalSymlinks(r.Dir); err == nil {
			r.Dir = dir
			roots[i].Dir = dir
		}
		if err := addTree(w, r.Dir, nil); err != nil {
			w.Close()
			return nil, fmt.Errorf("watching %s: %w", r.Name, err)
		}
		// The folder above tells when a root is deleted and made again or
		// replaced by another (mv new content): a watch on the root itself
		// ends with the folder it was on.
		if err := w.Add(filepath.Dir(r.Dir)); err != nil {
			w.Close()
			return nil, fmt.Errorf("watching the folder of %s: %w", r.Name, err)
		}
	}
	return &Watcher{roots: roots, debounce: debounce, fsw: w, logf: logf}, nil
}

// Close stops watching; Run returns.
func (w *Watcher) Close() error { return w.fsw.Close() }

// addTree watches dir and its subfolders and calls found for each file in
// them, which matters for a folder moved in whole: its files are new too.
func addTree(w *fsnotify.Watcher, dir string, found func(file string)) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil && p == dir:
			return err
		case err != nil:
			return nil // removed while we walked; its event follows
		case d.IsDir() && p != dir && strings.HasPrefix(d.Name(), "."):
			return filepath.SkipDir // .git and the like
		case d.IsDir():
			return w.Add(p)
		case found != nil:
			found(p)
		}
		return nil
	})
}

// batch is what changed during one burst of events.
type batch struct {
	content   map[string]bool   // paths relative to the content folder
	full      bool              // the content folder itself went or came: read it all
	templates bool              // a template or static file changed
	names     map[string]string // for the terminal: name shown → absolute path
}

func newBatch() batch { return batch{content: map[string]bool{}, names: map[string]string{}} }

func (b *batch) empty() bool { return len(b.content) == 0 && !b.templates && !b.full }

// Change is one burst of saves.
type Change struct {
	Content   []string // changed paths inside the content folder, slash-separated, sorted
	Full      bool     // the content folder itself went or came (deleted and made again, or replaced by mv): read it all
	Templates bool     // a template or static file changed
	names     map[string]string
}

// Describe names the changed files for the terminal line: those that
// exist, and those that are gone but were, before the change, files that
// was reports (the case files of the library), so that the scratch files
// of tools (sed -i, some editors) that come and go within a save are not
// named.
func (c Change) Describe(was func(file string) bool) string {
	names := make([]string, 0, len(c.names))
	for n, abs := range c.names {
		if _, err := os.Stat(abs); err == nil || was(n) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "files removed"
	}
	sort.Strings(names)
	if len(names) > 3 {
		return fmt.Sprintf("%s and %d more", strings.Join(names[:3], ", "), len(names)-3)
	}
	return strings.Join(names, ", ")
}

// Run collects file events into bursts and calls apply after each, until
// ctx is done or the watcher is closed. A burst ends when no event came
// for the debounce time: an editor's save is often several events (write a
// temporary file, rename, change attributes) and a git checkout is
// hundreds. A burst that never pauses is cut after ten debounce periods so
// that answers do not fall far behind.
func (w *Watcher) Run(ctx context.Context, apply func(Change)) {
	pending := newBatch()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var fire <-chan time.Time
	var first time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			if !w.note(ev, &pending) {
				continue
			}
			now := time.Now()
			if fire == nil {
				first = now
			}
			if fire == nil || now.Sub(first) < 10*w.debounce {
				timer.Reset(w.debounce)
				fire = timer.C
			}
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			w.logf("watching: %v\n", err)
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				// Events were lost: what they named is not known, so
				// everything is read again, as when a root comes back.
				w.lost(&pending)
				if fire == nil {
					first = time.Now()
				}
				timer.Reset(w.debounce)
				fire = timer.C
			}
		case <-fire:
			fire = nil
			if !pending.empty() {
				c := Change{Templates: pending.templates, Full: pending.full, names: pending.names}
				for p := range pending.content {
					c.Content = append(c.Content, p)
				}
				sort.Strings(c.Content)
				apply(c)
			}
			pending = newBatch()
		}
	}
}

// lost marks every root changed, for events the system dropped.
func (w *Watcher) lost(b *batch) {
	for _, r := range w.roots {
		if r.Kind == "content" {
			b.full = true
		} else {
			b.templates = true
		}
		b.names[r.Name] = r.Dir
	}
}

// note adds one event to the batch and reports whether it matters.
func (w *Watcher) note(ev fsnotify.Event, b *batch) bool {
	if ev.Op == fsnotify.Chmod {
		return false // touch, or an editor resetting attributes: nothing to read
	}
	r, rel, ok := w.rootOf(ev.Name)
	if !ok {
		return false
	}
	if rel == "." {
		return w.rootChanged(r, ev, b)
	}
	if ev.Has(fsnotify.Create) {
		found := false
		_ = addTree(w.fsw, ev.Name, func(file string) {
			if _, sub, ok := w.rootOf(file); ok && mark(r, sub, b) {
				found = true
			}
		})
		if found {
			return true
		}
	}
	return mark(r, rel, b)
}

// rootChanged handles an event about a root folder itself. When it is
// gone (deleted, or moved away: the watches would follow it to its new
// name), its watches are dropped; when a folder appears under its name
// (made again, or moved there), it is watched anew. Either way everything
// in it is read again.
func (w *Watcher) rootChanged(r Root, ev fsnotify.Event, b *batch) bool {
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		for _, p := range w.fsw.WatchList() {
			if p == r.Dir || strings.HasPrefix(p, r.Dir+string(filepath.Separator)) {
				_ = w.fsw.Remove(p)
			}
		}
	}
	if info, err := os.Stat(r.Dir); err == nil && info.IsDir() {
		if err := addTree(w.fsw, r.Dir, nil); err != nil {
			w.logf("watching %s: %v\n", r.Name, err)
		}
	}
	if r.Kind == "content" {
		b.full = true
	} else {
		b.templates = true
	}
	b.names[r.Name] = r.Dir
	return true
}

// mark records a changed path of a root; editors' scratch files and
// content files the loader does not read are left out.
func mark(r Root, rel string, b *batch) bool {
	base := filepath.Base(rel)
	if scratch(base) {
		return false
	}
	if r.Kind != "content" {
		b.templates = true
		b.names[r.Name+"/"+rel] = filepath.Join(r.Dir, filepath.FromSlash(rel))
		return true
	}
	if r.Reads != nil && !r.Reads(rel) {
		return false
	}
	b.content[rel] = true
	b.names[rel] = filepath.Join(r.Dir, filepath.FromSlash(rel))
	return true
}

// scratch reports whether a file name is an editor's temporary or backup
// file (vim's .swp and its 4913 probe, emacs's #x# and x~, dot files).
func scratch(base string) bool {
	return strings.HasPrefix(base, ".") || strings.HasPrefix(base, "#") ||
		strings.HasSuffix(base, "~") || strings.HasSuffix(base, ".swp") ||
		strings.HasSuffix(base, ".swx") || strings.HasSuffix(base, ".tmp") || base == "4913"
}

// rootOf finds the watched folder a path is in and the path inside it,
// slash-separated.
func (w *Watcher) rootOf(name string) (Root, string, bool) {
	for _, r := range w.roots {
		rel, err := filepath.Rel(r.Dir, name)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		return r, filepath.ToSlash(rel), true
	}
	return Root{}, "", false
}
