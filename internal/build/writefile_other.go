//go:build !linux

package build

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"time"
)

// writeFile creates a file of the output and writes data to it, always as
// a new file: one already at name may be a link to the earlier output.
func writeFile(name string, data []byte) error {
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err1 := f.Close(); err == nil {
		err = err1
	}
	return err
}

// sameFile reports whether name is a regular file that holds data, whether
// it exists at all, and its modification time.
func sameFile(name string, data []byte) (same, exists bool, mtime time.Time) {
	info, err := os.Lstat(name)
	if err != nil {
		return false, !errors.Is(err, fs.ErrNotExist), time.Time{}
	}
	if !info.Mode().IsRegular() || info.Size() != int64(len(data)) {
		return false, true, time.Time{}
	}
	f, err := os.Open(name)
	if err != nil {
		return false, true, time.Time{}
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(len(data))+1))
	if err != nil || !bytes.Equal(b, data) {
		return false, true, time.Time{}
	}
	return true, true, info.ModTime()
}
