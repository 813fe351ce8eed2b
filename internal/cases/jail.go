package cases

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"incidentlib/internal/diag"
)

// The content folder is read as a jail: a pull request can carry symbolic
// links and special files, and a build or a preview must neither publish a
// file from elsewhere on the machine (a link to /proc/self/environ), nor
// read without end (a link to /dev/zero), nor wait for ever (a FIFO).
//
// ContentFS is the one way into the folder: it resolves every name inside
// the folder with os.Root, so that no link leads out of it, and it opens
// nothing but regular files and folders, and of those neither a file with
// more than one hard link nor one on another mount inside the folder
// (sameTree). ReadContent, which every reader of
// content calls, also refuses a file larger than MaxFileBytes.

// maxFileBytes is the size of the largest content file read: far above any
// case or page (the largest seed case is 12 kB), far below what would strain
// a build.
const maxFileBytes = 8 << 20

// maxTextBytes is the size of the largest text in a case, and of the
// largest Markdown page: 256 kB is ten times the longest post-mortem, and
// rendering costs up to 500 times a text's size in memory and seconds for
// the worst shapes (markup's BenchmarkHostileMarkdown), which a bound on
// each text keeps to a few hundred MB.
const maxTextBytes = 256 << 10

// ContentFS returns the content folder dir as a file system that stays
// inside it. Each name is resolved anew, as os.DirFS does, so that a folder
// replaced under a running preview is read from its new files.
//
// Opening a name that is a symbolic link leading outside dir, or a link
// loop, fails; so does opening anything that is neither a regular file nor
// a folder (a FIFO, a device, a socket), without blocking: the type is
// checked before the file is opened, and it is opened non-blocking in case
// it changed between the two.
func ContentFS(dir string) fs.FS { return jailFS(dir) }

type jailFS string

// open resolves name inside the jail.
func (dir jailFS) open(op, name string) (*os.File, fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	root, err := os.OpenRoot(string(dir))
	if err != nil {
		return nil, nil, &fs.PathError{Op: op, Path: name, Err: unwrapPathError(err)}
	}
	defer root.Close()
	info, err := root.Stat(name)
	if err != nil {
		return nil, nil, &fs.PathError{Op: op, Path: name, Err: jailError(err)}
	}
	if err := fileKind(info); err != nil {
		return nil, nil, &fs.PathError{Op: op, Path: name, Err: err}
	}
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, &fs.PathError{Op: op, Path: name, Err: jailError(err)}
	}
	info, err = f.Stat()
	if err == nil {
		err = fileKind(info)
	}
	if err == nil {
		err = sameTree(f, info, topMount(root))
	}
	if err != nil {
		f.Close()
		return nil, nil, &fs.PathError{Op: op, Path: name, Err: err}
	}
	return f, info, nil
}

func (dir jailFS) Open(name string) (fs.File, error) {
	f, _, err := dir.open("open", name)
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (dir jailFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	root, err := os.OpenRoot(string(dir))
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: unwrapPathError(err)}
	}
	defer root.Close()
	info, err := root.Stat(name)
	if err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: jailError(err)}
	}
	return info, nil
}

// ReadFile makes fs.ReadFile on a ContentFS as bounded as ReadContent.
func (dir jailFS) ReadFile(name string) ([]byte, error) {
	f, info, err := dir.open("read", name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBounded(f, info, name, nil)
}

// errOutside is the error for a name that leads out of the content folder.
var errOutside = errors.New("a symbolic link leading outside the content folder: only files inside it are read")

// jailError says why os.Root refused a name, in the words of the content
// folder. os.Root's error for a path that leaves the root is not exported,
// so it is known by its text.
func jailError(err error) error {
	err = unwrapPathError(err)
	if err != nil && err.Error() == "path escapes from parent" {
		return errOutside
	}
	return err
}

// fileKind refuses everything but regular files and folders, naming what
// it found.
func fileKind(info fs.FileInfo) error {
	m := info.Mode()
	if m.IsRegular() || m.IsDir() {
		return nil
	}
	var kind string
	switch {
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		kind = "a character device"
	case m&fs.ModeDevice != 0:
		kind = "a device"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	case m&fs.ModeSymlink != 0:
		kind = "a symbolic link"
	default:
		kind = "not a regular file"
	}
	return fmt.Errorf("%s: only regular files and folders are read", kind)
}

// errTooLarge is the error for a file over MaxFileBytes.
var errTooLarge = fmt.Errorf("larger than %d MB, the most a content file may hold", maxFileBytes>>20)

// ReadContent reads the file name of a content folder: a regular file of at
// most MaxFileBytes. Every reader of content calls it, on a ContentFS or on
// a test's fstest.MapFS, so the limits hold whatever fsys is.
func ReadContent(fsys fs.FS, name string) ([]byte, error) {
	if rf, ok := fsys.(jailFS); ok {
		return rf.ReadFile(name)
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := fileKind(info); err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return readBounded(f, info, name, nil)
}

// readBounded reads a regular file, which may grow while it is read, up to
// MaxFileBytes.
func readBounded(f fs.File, info fs.FileInfo, name string, buf []byte) ([]byte, error) {
	if info.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("is a folder")}
	}
	if info.Size() > maxFileBytes {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errTooLarge}
	}
	b := buf[:0]
	if int64(cap(b)) < info.Size()+1 {
		b = make([]byte, 0, info.Size()+1)
	}
	b, err := readAllLimited(f, b, maxFileBytes+1)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	if len(b) > maxFileBytes {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errTooLarge}
	}
	return b, nil
}

// readAllLimited appends what r holds to b, stopping after limit bytes.
func readAllLimited(r io.Reader, b []byte, limit int) ([]byte, error) {
	for len(b) < limit {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):min(cap(b), limit)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

// transient are the errors of a read that may succeed if tried again
// without any change to the content: the process or the machine was short
// of files or memory for a moment.
var transient = []error{syscall.EMFILE, syscall.ENFILE, syscall.ENOMEM, syscall.EAGAIN, syscall.EINTR, syscall.EIO, syscall.EBUSY}

// Transient returns the files and folders of the report that could not be
// read for a reason that may pass by itself (too many open files, say), so
// that a server can read them again without waiting for the next save.
func Transient(list diag.List) []string {
	var files []string
	for _, d := range list.Items {
		if d.Warning || !strings.HasPrefix(d.Msg, "cannot read") {
			continue
		}
		for _, e := range transient {
			if strings.HasSuffix(d.Msg, e.Error()) {
				files = append(files, d.File)
				break
			}
		}
	}
	return files
}

// textTooLong is the message for a text over maxTextBytes.
func textTooLong(n int) string {
	return fmt.Sprintf("a text of %d bytes: a text holds at most %d (%d kB); shorten it, or link to the full document", n, maxTextBytes, maxTextBytes>>10)
}

// folderReader reads the files of one folder of the content, the case
// files of a large library, through one handle of the folder held open for
// the whole read, instead of opening the content folder and finding the
// folder in it again for each file as ReadContent does (eight system calls
// a file instead of fifteen). It reads through ReadContent whatever
// it cannot read by itself: every file when fsys is not a ContentFS or the
// folder cannot be opened, and any file it fails on (a link that leads out
// of the folder, which may still lead to a file inside the content folder;
// a missing file; a file too large), so that the bytes and the errors are
// the same as ReadContent's.
type folderReader struct {
	fsys fs.FS
	dir  string
	root *os.Root // the folder dir, or nil
	top  MountKey // the content folder's mount
}

// openFolder returns a reader of the files of dir in fsys; close it after
// use. It is safe for use by several goroutines at once.
func openFolder(fsys fs.FS, dir string) *folderReader {
	r := &folderReader{fsys: fsys, dir: dir}
	if jail, ok := fsys.(jailFS); ok && fs.ValidPath(dir) {
		if top, err := os.OpenRoot(string(jail)); err == nil {
			r.root, _ = top.OpenRoot(dir) // follows a link to a folder only inside the content
			r.top = topMount(top)
			top.Close()
		}
	}
	return r
}

// read reads the file name, a slash-separated path of the content, into
// buf when it is large enough (the bytes are then valid until buf is used
// again), or else into new memory.
func (r *folderReader) read(name string, buf []byte) ([]byte, error) {
	f, info := r.open(name)
	if f == nil {
		return ReadContent(r.fsys, name)
	}
	defer f.Close()
	b, err := readBounded(f, info, name, buf)
	if err != nil {
		return ReadContent(r.fsys, name)
	}
	return b, nil
}

// open opens the file name through the folder's handle, checking its kind
// as jailFS.open does: before it is opened, and again once it is. It
// returns nil when it cannot: the caller then goes the long way.
func (r *folderReader) open(name string) (*os.File, fs.FileInfo) {
	if r.root == nil {
		return nil, nil
	}
	base, ok := strings.CutPrefix(name, r.dir+"/")
	if !ok || strings.Contains(base, "/") {
		return nil, nil
	}
	info, err := r.root.Stat(base)
	if err != nil || fileKind(info) != nil {
		return nil, nil
	}
	f, err := r.root.OpenFile(base, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil
	}
	if info, err = f.Stat(); err != nil || fileKind(info) != nil || sameTree(f, info, r.top) != nil {
		f.Close()
		return nil, nil
	}
	return f, info
}

func (r *folderReader) close() {
	if r.root != nil {
		r.root.Close()
	}
}
