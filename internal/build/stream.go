package build

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// streamFile is a file of the output written piece by piece (the bulk
// downloads, tens of megabytes each at 10,000 cases), so that it is never
// whole in memory. It goes to its place in the temporary folder as it
// comes; on Close it is compared with the earlier output's file, and when
// the two are the same the earlier one is linked in its place, as write
// does for a file given whole.
type streamFile struct {
	w          *writer
	path, full string
	f          *os.File
	buf        *bufio.Writer
	n          int64
	closed     bool
}

// streamBuffer is what a streamed file holds before it writes to disk.
const streamBuffer = 256 << 10

// create opens the file at path (a slash-separated site path) for writing
// piece by piece.
func (w *writer) create(path string) (*streamFile, error) {
	if !validPath(path) {
		return nil, fmt.Errorf("bad output path %q", path)
	}
	full := filepath.Join(w.tmp, filepath.FromSlash(path))
	err := w.mkdir(filepath.Dir(full))
	var f *os.File
	if err == nil {
		f, err = openNew(full)
	}
	if errors.Is(err, fs.ErrNotExist) {
		// The folder's hash was another folder's: make it for real.
		if err = os.MkdirAll(filepath.Dir(full), 0o755); err == nil {
			f, err = openNew(full)
		}
	}
	if err != nil {
		return nil, w.pathError(path, err)
	}
	return &streamFile{w: w, path: path, full: full, f: f, buf: bufio.NewWriterSize(f, streamBuffer)}, nil
}

// openNew creates a new file at name; one already there may be a link to
// the earlier output, which must never change, so it is removed rather
// than truncated.
func openNew(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		if err = os.Remove(name); err == nil {
			f, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		}
	}
	return f, err
}

// pathError names a file by its place in the output: the temporary
// folder's name means nothing to the reader.
func (w *writer) pathError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("writing %s: %w", filepath.Join(w.out, filepath.FromSlash(path)), err)
}

func (s *streamFile) Write(p []byte) (int, error) {
	n, err := s.buf.Write(p)
	s.n += int64(n)
	if err != nil {
		err = s.w.pathError(s.path, err)
	}
	return n, err
}

// Close finishes the file, links the earlier output's in its place when
// that holds the same bytes, and counts it as write counts a file.
func (s *streamFile) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	err := s.buf.Flush()
	if err1 := s.f.Close(); err == nil {
		err = err1
	}
	if err != nil {
		return s.w.pathError(s.path, err)
	}
	kept, existed, err := s.w.keepOld(s.path, s.full, s.n)
	if err != nil {
		return s.w.pathError(s.path, err)
	}
	s.w.count(s.path, s.n, kept, existed)
	return nil
}

// Abort gives up a file that will not be finished.
func (s *streamFile) Abort() {
	if !s.closed {
		s.closed = true
		s.f.Close()
		os.Remove(s.full)
	}
}

// keepOld replaces the file just written at full (path in the output, size
// bytes) by a link to the earlier output's file at path when that holds
// the same bytes (or, where links cannot be made, gives it that file's
// time). kept and existed are as for place.
func (w *writer) keepOld(path, full string, size int64) (kept, existed bool, err error) {
	if w.old == "" {
		return false, false, nil
	}
	old := filepath.Join(w.old, filepath.FromSlash(path))
	same, existed, mtime := sameFiles(old, full, size)
	if !same {
		return false, existed, nil
	}
	link := full + tempMark + "link"
	if err := os.Link(old, link); err == nil {
		if err := os.Rename(link, full); err != nil {
			os.Remove(link)
			return false, true, err
		}
		return true, true, nil
	}
	// No hard links here: the new file with the old time is as good for
	// whoever syncs the output.
	return true, true, os.Chtimes(full, mtime, mtime)
}

// sameFiles reports whether old is a regular file with the same size bytes
// as the file at name, whether it exists at all, and its modification
// time. Both are read a piece at a time.
func sameFiles(old, name string, size int64) (same, exists bool, mtime time.Time) {
	info, err := os.Lstat(old)
	if err != nil {
		return false, !errors.Is(err, fs.ErrNotExist), time.Time{}
	}
	if !info.Mode().IsRegular() || info.Size() != size {
		return false, true, time.Time{}
	}
	a, err := os.Open(old)
	if err != nil {
		return false, true, time.Time{}
	}
	defer a.Close()
	b, err := os.Open(name)
	if err != nil {
		return false, true, time.Time{}
	}
	defer b.Close()
	bufA, bufB := make([]byte, 64<<10), make([]byte, 64<<10)
	for {
		n, errA := io.ReadFull(a, bufA)
		m, errB := io.ReadFull(b, bufB)
		if n != m || !bytes.Equal(bufA[:n], bufB[:m]) {
			return false, true, time.Time{}
		}
		if errA != nil || errB != nil {
			end := func(err error) bool { return err == io.EOF || err == io.ErrUnexpectedEOF }
			return end(errA) && end(errB), true, info.ModTime()
		}
	}
}

// countedFile is a streamed file of an extra, counted as its file when
// it is finished.
type countedFile struct {
	*streamFile
	closed func()
}

func (c *countedFile) Close() error {
	done := c.streamFile.closed
	err := c.streamFile.Close()
	if err == nil && !done {
		c.closed()
	}
	return err
}
