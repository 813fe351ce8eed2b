package build

import "golang.org/x/sys/unix"

// statMount returns the mount key of the open folder fd: its device and,
// since Linux 5.8, its mount's id, which tells a bind mount of a folder of
// the same filesystem (the same device number) from the folders around it.
func statMount(fd int) (mountKey, error) {
	var stx unix.Statx_t
	err := unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_MNT_ID, &stx)
	if err == unix.ENOSYS {
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			return mountKey{}, err
		}
		return mountKey{dev: st.Dev}, nil
	}
	if err != nil {
		return mountKey{}, err
	}
	k := mountKey{dev: unix.Mkdev(stx.Dev_major, stx.Dev_minor)}
	if stx.Mask&unix.STATX_MNT_ID != 0 {
		k.mnt = stx.Mnt_id
	}
	return k, nil
}
