//go:build unix && !linux

package build

import "golang.org/x/sys/unix"

// statMount returns the mount key of the open folder fd: elsewhere than on
// Linux, its device alone.
func statMount(fd int) (mountKey, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return mountKey{}, err
	}
	return mountKey{dev: uint64(st.Dev)}, nil
}
