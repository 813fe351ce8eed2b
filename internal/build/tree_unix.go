//go:build unix

package build

import (
	"errors"
	"incidentlib/internal/cases"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// mountKey names the mounted filesystem a folder belongs to: two folders
// are on the same mount when their keys are equal. The content's jail
// tells mounts apart the same way.
type mountKey = cases.MountKey

// statMount returns the mount key of the open folder fd.
func statMount(fd int) (mountKey, error) { return cases.StatMount(fd) }

// dirMount returns the mount key of the open folder fd (at path). It is a
// variable so that a test can report another device for a folder, where
// it cannot mount one.
var dirMount = func(fd int, path string) (mountKey, error) {
	k, err := statMount(fd)
	if err != nil {
		return mountKey{}, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	return k, nil
}

// openDir opens the folder name in the folder at (or at a path, for
// unix.AT_FDCWD), never following a link.
func openDir(at int, name string) (int, error) {
	for {
		fd, err := unix.Openat(at, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// readDir lists the open folder fd; the caller keeps fd open.
func readDir(fd int, path string) ([]fs.DirEntry, error) {
	dup, err := unix.Dup(fd)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(dup), path)
	defer f.Close()
	return f.ReadDir(-1)
}

// walkTree calls visit for every entry below root (root itself left out),
// with its path relative to root, slash-separated, and its type. A folder
// visit returns false for is not entered; a folder on another mount than
// root is never entered, and goes to other instead.
func walkTree(root string, visit func(rel string, typ fs.FileMode) bool, other func(rel string)) error {
	fd, err := openDir(unix.AT_FDCWD, root)
	if err != nil {
		return &fs.PathError{Op: "open", Path: root, Err: err}
	}
	key, err := dirMount(fd, root)
	if err != nil {
		unix.Close(fd)
		return err
	}
	var walk func(fd int, dir, rel string) error
	walk = func(fd int, dir, rel string) error {
		defer unix.Close(fd)
		entries, err := readDir(fd, dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			r, p := e.Name(), filepath.Join(dir, e.Name())
			if rel != "" {
				r = rel + "/" + e.Name()
			}
			if !visit(r, e.Type()) || !e.IsDir() {
				continue
			}
			child, err := openDir(fd, e.Name())
			if err != nil {
				return &fs.PathError{Op: "open", Path: p, Err: err}
			}
			k, err := dirMount(child, p)
			if err != nil {
				unix.Close(child)
				return err
			}
			if k != key {
				unix.Close(child)
				other(r)
				continue
			}
			if err := walk(child, p, r); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(fd, root, "")
}

// removeTree removes dir and everything in it, as os.RemoveAll does, but
// never across filesystems: a folder on another mount than dir (a volume
// mounted inside it) is left alone, with the folders above it, and listed
// in skipped. A missing dir is no error.
//
// The marker at the top of dir goes last, and only once everything else
// is gone: a removal stopped half way (a build killed while it cleans up,
// a file it cannot remove) leaves a folder that the next build still knows
// for a build's, and removes (removeStale).
func removeTree(dir string) (skipped []string, err error) {
	fd, err := openDir(unix.AT_FDCWD, dir)
	if errors.Is(err, unix.ENOENT) {
		return nil, nil
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	key, err := dirMount(fd, dir)
	if err != nil {
		unix.Close(fd)
		return nil, err
	}
	r := &treeRemover{top: dir, key: key}
	if r.clear(fd, dir) {
		if e := unix.Rmdir(dir); e != nil && e != unix.ENOENT {
			r.note(&fs.PathError{Op: "remove", Path: dir, Err: e})
		}
	}
	return r.skipped, r.err
}

// treeRemover is one removeTree: the folder it removes, its mount, and
// what it found on the way.
type treeRemover struct {
	top     string
	key     mountKey
	skipped []string // folders on another mount, left alone
	err     error    // the first error
}

func (r *treeRemover) note(e error) {
	if r.err == nil {
		r.err = e
	}
}

// clear empties the open folder fd and reports whether it is empty; it
// closes fd. The marker at the top goes last, once all else is gone.
func (r *treeRemover) clear(fd int, dir string) bool {
	defer unix.Close(fd)
	entries, e := readDir(fd, dir)
	if e != nil {
		r.note(e)
		return false
	}
	empty, marker := true, false
	for _, ent := range entries {
		if ent.Name() == Marker && dir == r.top && !ent.IsDir() {
			marker = true
			continue
		}
		if !r.remove(fd, dir, ent) {
			empty = false
		}
	}
	if marker && empty {
		if e := unix.Unlinkat(fd, Marker, 0); e != nil && e != unix.ENOENT {
			r.note(&fs.PathError{Op: "remove", Path: filepath.Join(dir, Marker), Err: e})
			empty = false
		}
	} else if marker {
		empty = false
	}
	return empty
}

// remove removes the entry ent of the open folder fd (named dir), a folder
// with everything in it unless it is on another mount, and reports whether
// it is gone.
func (r *treeRemover) remove(fd int, dir string, ent fs.DirEntry) bool {
	p := filepath.Join(dir, ent.Name())
	if !ent.IsDir() {
		if e := unix.Unlinkat(fd, ent.Name(), 0); e != nil && e != unix.ENOENT {
			r.note(&fs.PathError{Op: "remove", Path: p, Err: e})
			return false
		}
		return true
	}
	child, e := openDir(fd, ent.Name())
	if e != nil {
		r.note(&fs.PathError{Op: "open", Path: p, Err: e})
		return false
	}
	k, e := dirMount(child, p)
	if e != nil || k != r.key {
		unix.Close(child)
		if e != nil {
			r.note(e)
		} else {
			r.skipped = append(r.skipped, p)
		}
		return false
	}
	if !r.clear(child, p) {
		return false
	}
	if e := unix.Unlinkat(fd, ent.Name(), unix.AT_REMOVEDIR); e != nil && e != unix.ENOENT {
		r.note(&fs.PathError{Op: "remove", Path: p, Err: e})
		return false
	}
	return true
}
