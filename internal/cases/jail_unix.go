//go:build unix

package cases

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// MountKey names the mounted filesystem a file or folder belongs to: two
// are on the same mount when their keys are equal (StatMount). The build
// compares folders of its output by it too.
type MountKey struct {
	Dev, Mnt uint64
}

// mountOf is the mount key of the open file f, or the zero key when it
// cannot be had.
func mountOf(f *os.File) MountKey {
	rc, err := f.SyscallConn()
	if err != nil {
		return MountKey{}
	}
	var k MountKey
	rc.Control(func(fd uintptr) { k, _ = StatMount(int(fd)) })
	return k
}

// sameTree refuses what a jail of folders and links alone lets through: a
// regular file with more than one hard link (its other name may be
// anywhere on the filesystem, a secret included, and a pull request cannot
// carry one, so a content folder never needs one), and a file on another
// mount than the content folder's (a volume or a bind mount inside it).
// top is the content folder's mount key; the zero key skips that check.
func sameTree(f *os.File, info fs.FileInfo, top MountKey) error {
	if st, ok := info.Sys().(*syscall.Stat_t); ok && info.Mode().IsRegular() && st.Nlink > 1 {
		return fmt.Errorf("a file with %d hard links: its other names may lie outside the content folder, so it is not read; copy it instead", st.Nlink)
	}
	if top == (MountKey{}) {
		return nil
	}
	if k := mountOf(f); k != (MountKey{}) && (k.Dev != top.Dev || k.Mnt != 0 && top.Mnt != 0 && k.Mnt != top.Mnt) {
		return errOtherMount
	}
	return nil
}

var errOtherMount = errors.New("on another mount than the content folder (a volume or a bind mount inside it): only files of the content folder's own mount are read")

// topMount is the mount key of the folder root.
func topMount(root *os.Root) MountKey {
	f, err := root.Open(".")
	if err != nil {
		return MountKey{}
	}
	defer f.Close()
	return mountOf(f)
}
