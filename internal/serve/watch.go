package serve

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"incidentlib/internal/cases"
)

// newWatcher watches every folder under the roots. inotify and its kin
// watch one folder, not a tree, so each subfolder is added, and folders
// created later are added when they appear.
func (s *Server) newWatcher() (*fsnotify.Watcher, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watching files: %w", err)
	}
	for _, r := range s.roots {
		if err := addTree(w, r.dir, nil); err != nil {
			w.Close()
			return nil, fmt.Errorf("watching %s: %w", r.name, err)
		}
		// The folder above tells when a root is deleted and made again or
		// replaced by another (mv new content): a watch on the root itself
		// ends with the folder it was on.
		if err := w.Add(filepath.Dir(r.dir)); err != nil {
			w.Close()
			return nil, fmt.Errorf("watching the folder of %s: %w", r.name, err)
		}
	}
	return w, nil
}

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

// describe names the changed files for the terminal line: those that
// exist, and those that are gone but were case files of the library, so
// that the scratch files of tools (sed -i, some editors) that come and go
// within a save are not named.
func (b *batch) describe(lib *cases.Library) string {
	names := make([]string, 0, len(b.names))
	for n, abs := range b.names {
		if _, err := os.Stat(abs); err == nil || wasCase(lib, n) {
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

// watch collects file events into bursts and rebuilds after each. A burst
// ends when no event came for Options.Debounce: an editor's save is often
// several events (write a temporary file, rename, change attributes) and a
// git checkout is hundreds. A burst that never pauses is cut after ten
// debounce periods so that the preview does not fall far behind.
func (s *Server) watch(ctx context.Context, w *fsnotify.Watcher) {
	pending := newBatch()
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var fire <-chan time.Time
	var first time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			if !s.note(w, ev, &pending) {
				continue
			}
			now := time.Now()
			if fire == nil {
				first = now
			}
			if fire == nil || now.Sub(first) < 10*s.opt.Debounce {
				timer.Reset(s.opt.Debounce)
				fire = timer.C
			}
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			s.logf("incidentlib serve: watching: %v\n", err)
		case <-fire:
			fire = nil
			if !pending.empty() {
				content := make([]string, 0, len(pending.content))
				for p := range pending.content {
					content = append(content, p)
				}
				sort.Strings(content)
				s.apply(content, pending.full, pending.templates, pending.describe(s.cur.Load().lib))
			}
			pending = newBatch()
		}
	}
}

// note adds one event to the batch and reports whether it matters.
func (s *Server) note(w *fsnotify.Watcher, ev fsnotify.Event, b *batch) bool {
	if ev.Op == fsnotify.Chmod {
		return false // touch, or an editor resetting attributes: nothing to read
	}
	r, rel, ok := s.rootOf(ev.Name)
	if !ok {
		return false
	}
	if rel == "." {
		return s.rootChanged(w, r, ev, b)
	}
	if ev.Has(fsnotify.Create) {
		found := false
		_ = addTree(w, ev.Name, func(file string) {
			if _, sub, ok := s.rootOf(file); ok && s.mark(r, sub, b) {
				found = true
			}
		})
		if found {
			return true
		}
	}
	return s.mark(r, rel, b)
}

// rootChanged handles an event about a root folder itself. When it is
// gone (deleted, or moved away: the watches would follow it to its new
// name), its watches are dropped; when a folder appears under its name
// (made again, or moved there), it is watched anew. Either way everything
// in it is read again.
func (s *Server) rootChanged(w *fsnotify.Watcher, r root, ev fsnotify.Event, b *batch) bool {
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		for _, p := range w.WatchList() {
			if p == r.dir || strings.HasPrefix(p, r.dir+string(filepath.Separator)) {
				_ = w.Remove(p)
			}
		}
	}
	if info, err := os.Stat(r.dir); err == nil && info.IsDir() {
		if err := addTree(w, r.dir, nil); err != nil {
			s.logf("incidentlib serve: watching %s: %v\n", r.name, err)
		}
	}
	if r.kind == "content" {
		b.full = true
	} else {
		b.templates = true
	}
	b.names[r.name] = r.dir
	return true
}

// mark records a changed path of a root; editors' scratch files and
// content files the loader does not read are left out.
func (s *Server) mark(r root, rel string, b *batch) bool {
	base := filepath.Base(rel)
	if scratch(base) {
		return false
	}
	if r.kind != "content" {
		b.templates = true
		b.names[r.name+"/"+rel] = filepath.Join(r.dir, filepath.FromSlash(rel))
		return true
	}
	top, _, _ := strings.Cut(rel, "/")
	switch top {
	case "cases", "pages", "topics", "site.json", "vocab.json":
		b.content[rel] = true
		b.names[rel] = filepath.Join(r.dir, filepath.FromSlash(rel))
		return true
	}
	return false
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
func (s *Server) rootOf(name string) (root, string, bool) {
	for _, r := range s.roots {
		rel, err := filepath.Rel(r.dir, name)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		return r, filepath.ToSlash(rel), true
	}
	return root{}, "", false
}
