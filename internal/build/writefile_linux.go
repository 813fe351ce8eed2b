package build

import (
	"bytes"
	"io/fs"
	"sync"
	"syscall"
	"time"
)

// writeFile creates a file of the output and writes data to it. It is
// os.WriteFile without the runtime's poller, which tries to register every
// file it opens (a wasted system call for a regular file): a build writes
// tens of thousands of files. The file is always a new one: a file already
// at name may be a link to the earlier output, which must never change, so
// it is removed rather than truncated.
func writeFile(name string, data []byte) error {
	fd, err := create(name)
	if err == syscall.EEXIST {
		if err = syscall.Unlink(name); err == nil {
			fd, err = create(name)
		}
	}
	if err != nil {
		return &fs.PathError{Op: "open", Path: name, Err: err}
	}
	for len(data) > 0 {
		n, err := syscall.Write(fd, data)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			syscall.Close(fd)
			return &fs.PathError{Op: "write", Path: name, Err: err}
		}
		data = data[n:]
	}
	if err := syscall.Close(fd); err != nil {
		return &fs.PathError{Op: "close", Path: name, Err: err}
	}
	return nil
}

func create(name string) (int, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL|syscall.O_CLOEXEC, 0o644)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// compareBuf holds what sameFile reads of an old file.
var compareBuf = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// sameFile reports whether name is a regular file that holds data, whether
// it exists at all, and its modification time.
func sameFile(name string, data []byte) (same, exists bool, mtime time.Time) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return false, err != syscall.ENOENT && err != syscall.ENOTDIR, time.Time{}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return false, true, time.Time{}
	}
	if st.Size != int64(len(data)) {
		return false, true, time.Time{}
	}
	bp := compareBuf.Get().(*[]byte)
	defer compareBuf.Put(bp)
	// The size matched, so reading stops when data is used up: most
	// files take one read.
	buf, rest := *bp, data
	for len(rest) > 0 {
		n, err := syscall.Read(fd, buf[:min(len(buf), len(rest))])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n == 0 || !bytes.Equal(buf[:n], rest[:n]) {
			return false, true, time.Time{}
		}
		rest = rest[n:]
	}
	return true, true, time.Unix(st.Mtim.Sec, st.Mtim.Nsec)
}
