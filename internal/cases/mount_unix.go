//go:build unix && !linux

package cases

import "golang.org/x/sys/unix"

// StatMount returns the mount key of the open file or folder fd:
// elsewhere than on Linux, its device alone.
func StatMount(fd int) (MountKey, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return MountKey{}, err
	}
	return MountKey{Dev: uint64(st.Dev)}, nil
}
