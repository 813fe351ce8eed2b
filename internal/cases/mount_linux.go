package cases

import "golang.org/x/sys/unix"

// StatMount returns the mount key of the open file or folder fd: its
// device and, since Linux 5.8, its mount's id, which tells a bind mount of
// a folder of the same filesystem (the same device number) from the
// folders around it.
func StatMount(fd int) (MountKey, error) {
	var stx unix.Statx_t
	err := unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_MNT_ID, &stx)
	if err == unix.ENOSYS {
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			return MountKey{}, err
		}
		return MountKey{Dev: st.Dev}, nil
	}
	if err != nil {
		return MountKey{}, err
	}
	k := MountKey{Dev: unix.Mkdev(stx.Dev_major, stx.Dev_minor)}
	if stx.Mask&unix.STATX_MNT_ID != 0 {
		k.Mnt = stx.Mnt_id
	}
	return k, nil
}
