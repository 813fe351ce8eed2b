package build

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
)

// writer writes files into a temporary sibling of the output folder (a
// folder inside it when it is a mount point). A file whose bytes the
// earlier output holds already is linked from there instead of written, so
// that it keeps its modification time and tools that sync by size and time
// (rsync, aws s3 sync, web servers' ETags) see only what changed. A file is
// never written in place: new bytes always go to a new file, so a link to
// the earlier output never changes it, and a build that stops leaves the
// earlier output whole.
type writer struct {
	given    string // -out as given, for messages
	out, tmp string
	old      string    // the earlier output to compare with, or ""
	prev     *fileList // what the earlier output's marker lists, or nil
	inPlace  bool      // out is a mount point: see commitInPlace
	files    atomic.Int64
	bytes    atomic.Int64
	kept     atomic.Int64 // linked from the earlier output
	replaced atomic.Int64 // written over a file of the earlier output with other bytes
	pathsMu  sync.Mutex
	paths    []string // every file written, for the marker
	// dirs holds a hash of every folder made, not its name: at 100,000
	// cases there are 400,000 folders, and a table of hashes is no work for
	// the garbage collector. Two folders with the same hash only cost a
	// failed write and a retry, see write.
	dirsMu sync.Mutex
	dirs   map[uint64]struct{}
	done   bool
	unlock func()
	made   string // the topmost folder made for the output's parent, or ""
}

// newWriter makes the temporary folder for the output t (which outTarget
// has judged and resolved), after removing those that killed builds of the
// same output left behind, and locks it as this build's. The marker goes in
// first, so that a folder left by this build, too, is known for what it
// is, and so that a full disk shows before any work. Errors name the
// output as given, never the temporary folder.
func newWriter(t target, given string) (*writer, error) {
	out := filepath.Clean(t.out)
	parent := filepath.Dir(out)
	fail := func(err error) error {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot write the output folder %s: %w", given, err)
	}
	made := topMissing(parent)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fail(err)
	}
	removeStale(out)
	where := parent
	if t.inPlace {
		where = out
	}
	tmp, err := os.MkdirTemp(where, tempPrefix(out)+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		removeMade(made)
		return nil, fail(err)
	}
	w := &writer{given: given, out: out, tmp: filepath.Clean(tmp), prev: t.old, inPlace: t.inPlace, dirs: map[uint64]struct{}{}, made: made}
	if t.exists {
		w.old = out
	}
	if w.unlock, err = lockTemp(tmp); err != nil {
		w.abandon()
		return nil, fail(err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		w.abandon()
		return nil, fail(err)
	}
	if err := writeFile(filepath.Join(tmp, Marker), []byte(markerHead)); err != nil {
		w.abandon()
		return nil, fail(err)
	}
	return w, nil
}

// topMissing returns the topmost folder of dir's path that does not exist,
// or "" when dir exists.
func topMissing(dir string) string {
	top := ""
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || d == filepath.Dir(d) {
			return top
		}
		top = d
	}
}

// removeMade removes the folders a failed build made for the output's
// parent, as far as they are empty.
func removeMade(made string) {
	if made == "" {
		return
	}
	var dirs []string
	_ = filepath.WalkDir(made, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = os.Remove(dirs[i])
	}
}

// write stores one file; path is a slash-separated site path. Paths come
// from checked ids and slugs, but are checked again here so that nothing can
// ever be written outside the output folder.
func (w *writer) write(path string, data []byte) error {
	if !validPath(path) {
		return fmt.Errorf("bad output path %q", path)
	}
	full := filepath.Join(w.tmp, filepath.FromSlash(path))
	var kept, existed bool
	err := w.mkdir(filepath.Dir(full))
	if err == nil {
		kept, existed, err = w.place(path, full, data)
	}
	if errors.Is(err, fs.ErrNotExist) {
		// The folder's hash was another folder's: make it for real.
		if err = os.MkdirAll(filepath.Dir(full), 0o755); err == nil {
			kept, existed, err = w.place(path, full, data)
		}
	}
	if err != nil {
		return w.pathError(path, err)
	}
	w.count(path, int64(len(data)), kept, existed)
	return nil
}

// count adds a file written at path, of size bytes, to the figures and
// the marker's list.
func (w *writer) count(path string, size int64, kept, existed bool) {
	w.files.Add(1)
	w.bytes.Add(size)
	switch {
	case kept:
		w.kept.Add(1)
	case existed:
		w.replaced.Add(1)
	}
	w.pathsMu.Lock()
	w.paths = append(w.paths, path)
	w.pathsMu.Unlock()
}

// place puts data at full (path in the output): linked from the earlier
// output when that holds the same bytes at path, written otherwise. kept
// says it was linked (or, across filesystems, copied with its time);
// existed, that the earlier output had a file at path.
func (w *writer) place(path, full string, data []byte) (kept, existed bool, err error) {
	if w.old == "" {
		return false, false, writeFile(full, data)
	}
	old := filepath.Join(w.old, filepath.FromSlash(path))
	same, existed, mtime := sameFile(old, data)
	if !same {
		return false, existed, writeFile(full, data)
	}
	err = os.Link(old, full)
	if errors.Is(err, fs.ErrExist) {
		if err = os.Remove(full); err == nil {
			err = os.Link(old, full)
		}
	}
	if err == nil {
		return true, true, nil
	}
	// No hard links here (or not across these folders): a copy with the
	// old time is as good for whoever syncs the output.
	if err := writeFile(full, data); err != nil {
		return false, true, err
	}
	return true, true, os.Chtimes(full, mtime, mtime)
}

// mkdir makes a folder of the output and the folders above it, each with
// one system call, once: most files of a site sit in a folder of their own.
func (w *writer) mkdir(dir string) error {
	if dir == w.tmp || dir == filepath.Dir(dir) {
		return nil // the top: the output folder, or the root it is not under
	}
	h := maphash.String(dirSeed, dir)
	w.dirsMu.Lock()
	_, ok := w.dirs[h]
	w.dirsMu.Unlock()
	if ok {
		return nil
	}
	if err := w.mkdir(filepath.Dir(dir)); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	w.dirsMu.Lock()
	w.dirs[h] = struct{}{}
	w.dirsMu.Unlock()
	return nil
}

var dirSeed = maphash.MakeSeed()

// writeMarker replaces the marker in the temporary folder by the list of
// what this build wrote; when the earlier output's marker is the same, it
// is kept like any other file.
func (w *writer) writeMarker() error {
	full := filepath.Join(w.tmp, Marker)
	if err := os.Remove(full); err != nil {
		return err
	}
	w.pathsMu.Lock()
	list := newFileList(w.paths)
	w.pathsMu.Unlock()
	_, _, err := w.place(Marker, full, markerBytes(list))
	return err
}

// commit swaps the new folder in and returns warnings about what went wrong
// after that; an error means the output was not replaced. Where the system
// can, the two folders trade places in one step and the old output, now
// under the temporary name, is removed; elsewhere the old output is moved
// aside first and removed only after the new one is in place. An output
// that is a mount point has its entries replaced instead (commitInPlace).
func (w *writer) commit() ([]string, error) {
	if err := w.writeMarker(); err != nil {
		return nil, fmt.Errorf("writing %s: %w", filepath.Join(w.out, Marker), err)
	}
	if w.inPlace {
		return w.commitInPlace()
	}
	old := ""
	if _, err := os.Lstat(w.out); err == nil {
		swapped, err := exchange(w.tmp, w.out)
		if err != nil {
			return nil, fmt.Errorf("replacing %s: %w", w.given, err)
		}
		if swapped {
			old = w.tmp
		} else {
			old = w.tmp + ".old"
			if err := os.Rename(w.out, old); err != nil {
				return nil, fmt.Errorf("replacing %s: %w", w.given, err)
			}
		}
	}
	if old != w.tmp {
		if err := os.Rename(w.tmp, w.out); err != nil {
			if old != "" {
				_ = os.Rename(old, w.out)
			}
			return nil, fmt.Errorf("replacing %s: %w", w.given, err)
		}
	}
	w.done = true
	w.release()
	return w.removeOld(old), nil
}

// removeOld removes the old output, moved to dir, and says what it could
// not remove: the new output is in place whatever happens here.
func (w *writer) removeOld(dir string) []string {
	if dir == "" {
		return nil
	}
	skipped, err := removeTree(dir)
	var warnings []string
	if len(skipped) > 0 {
		warnings = append(warnings, fmt.Sprintf("the new output is in place; the old one, moved to %s, holds another filesystem (%s), left alone with the folders above it", dir, listNames(skipped)))
	}
	if err != nil {
		warnings = append(warnings, fmt.Sprintf("the new output is in place; the old one, moved to %s, could not be removed completely: %v", dir, err))
	}
	return warnings
}

// commitInPlace replaces the entries of an output that is a mount point,
// which cannot be renamed: each entry trades places with the new one (on
// Linux in one step), the entries the new output has not are moved into
// the temporary folder, which is removed with the old entries in it. While
// the entries move, the marker lists both the old and the new files, so
// that an output left half way by a killed build is still known as one.
func (w *writer) commitInPlace() ([]string, error) {
	fail := func(err error) ([]string, error) {
		return nil, fmt.Errorf("replacing the contents of %s (a mount point) stopped half way: %w; build again to finish", w.given, err)
	}
	both := append([]string(nil), w.paths...)
	if w.prev != nil {
		both = append(both, w.prev.files...)
	}
	sort.Strings(both)
	both = slices.Compact(both)
	union := filepath.Join(w.out, tempPrefix(w.out)+"marker")
	if err := writeFile(union, markerBytes(&fileList{files: both})); err != nil {
		return nil, fmt.Errorf("replacing %s: %w", w.given, err)
	}
	if err := os.Rename(union, filepath.Join(w.out, Marker)); err != nil {
		os.Remove(union)
		return nil, fmt.Errorf("replacing %s: %w", w.given, err)
	}
	fresh, err := os.ReadDir(w.tmp)
	if err != nil {
		return fail(err)
	}
	current, err := os.ReadDir(w.out)
	if err != nil {
		return fail(err)
	}
	has := map[string]bool{}
	for _, e := range withoutTemps(current, w.out) {
		has[e.Name()] = true
	}
	// The marker last: until it moves, the union stands.
	sort.SliceStable(fresh, func(i, j int) bool { return fresh[j].Name() == Marker && fresh[i].Name() != Marker })
	for _, e := range fresh {
		from, to := filepath.Join(w.tmp, e.Name()), filepath.Join(w.out, e.Name())
		if has[e.Name()] {
			delete(has, e.Name())
			swapped, err := exchange(from, to)
			if err != nil {
				return fail(err)
			}
			if swapped {
				continue
			}
			if err := os.Rename(to, from+tempMark+"old"); err != nil {
				return fail(err)
			}
		}
		if err := os.Rename(from, to); err != nil {
			return fail(err)
		}
	}
	for name := range has {
		if err := os.Rename(filepath.Join(w.out, name), filepath.Join(w.tmp, name)); err != nil {
			return fail(err)
		}
	}
	w.done = true
	w.release()
	return w.removeOld(w.tmp), nil
}

// release gives up the lock of the temporary folder.
func (w *writer) release() {
	if w.unlock != nil {
		w.unlock()
		w.unlock = nil
	}
}

// abandon removes the temporary folder of a build that did not commit,
// and the folders made for it.
func (w *writer) abandon() {
	if !w.done {
		// The marker goes last, so that a build killed while it cleans up
		// (a second Ctrl-C) leaves a folder the next build still knows as
		// a build's, and removes (removeStale).
		if entries, err := os.ReadDir(w.tmp); err == nil {
			for _, e := range entries {
				switch p := filepath.Join(w.tmp, e.Name()); {
				case e.Name() == Marker:
				case e.IsDir():
					_, _ = removeTree(p)
				default:
					_ = os.Remove(p)
				}
			}
		}
		_, _ = removeTree(w.tmp)
		w.release()
		removeMade(w.made)
	}
}
