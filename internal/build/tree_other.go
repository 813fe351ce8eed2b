//go:build !unix

package build

import (
	"io/fs"
	"os"
	"path/filepath"
)

// walkTree calls visit for every entry below root, with its path relative
// to root; without a way to ask for a folder's device, other is never
// called.
func walkTree(root string, visit func(rel string, typ fs.FileMode) bool, other func(rel string)) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if !visit(filepath.ToSlash(rel), d.Type()) && d.IsDir() {
			return filepath.SkipDir
		}
		return nil
	})
}

// removeTree removes dir and everything in it, the marker at its top last
// (see tree_unix.go).
func removeTree(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	for _, e := range entries {
		if e.Name() != Marker {
			if e := os.RemoveAll(filepath.Join(dir, e.Name())); e != nil && err == nil {
				err = e
			}
		}
	}
	if err != nil {
		return nil, err
	}
	return nil, os.RemoveAll(dir)
}
