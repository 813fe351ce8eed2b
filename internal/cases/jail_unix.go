//go:build unix

package cases

import (
	"fmt"
	"io/fs"
	"syscall"
)

// sameTree refuses what a jail of folders and links alone lets through: a
// regular file with more than one hard link (its other name may be
// anywhere on the filesystem, a secret included, and a pull request cannot
// carry one, so a content folder never needs one), and a file or folder
// on another filesystem than the content folder's (a volume mounted
// inside it). dev is the content folder's device; 0 skips that check.
func sameTree(info fs.FileInfo, dev uint64) error {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if info.Mode().IsRegular() && st.Nlink > 1 {
		return fmt.Errorf("a file with %d hard links: its other names may lie outside the content folder, so it is not read; copy it instead", st.Nlink)
	}
	if dev != 0 && uint64(st.Dev) != dev {
		return fmt.Errorf("on another filesystem than the content folder (a mount inside it): only files of the content folder's own filesystem are read")
	}
	return nil
}

// deviceOf is the device of the file or folder info, or 0.
func deviceOf(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev)
	}
	return 0
}
