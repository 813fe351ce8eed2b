package build

import (
	"io/fs"
	"syscall"
)

// writeFile creates a file of the output and writes data to it. It is
// os.WriteFile without the runtime's poller, which tries to register every
// file it opens (a wasted system call for a regular file): a build writes
// tens of thousands of files.
func writeFile(name string, data []byte) error {
	fd, err := open(name)
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

func open(name string) (int, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_TRUNC|syscall.O_CLOEXEC, 0o644)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
