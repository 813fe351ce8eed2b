package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// file is one file of a build's output, by its path under the output folder.
type file struct {
	path string
	size int64
}

// floor is the time taken to write a build's files again with nothing else
// going on: the part of a build that the machine's file system decides.
type floor struct {
	files     int
	bytes     int64
	wall, sys time.Duration
}

// list returns the files under dir in the lexical order filepath.WalkDir
// visits them.
func list(dir string) []file {
	var out []file
	must(filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, file{rel, fi.Size()})
		return nil
	}))
	return out
}

// rewrite makes the folders of files in a new folder under tmp and writes
// files there from two goroutines, taking turns as the build's page workers
// do, with the open, write and close system calls the build uses on Linux;
// it removes the folder again afterwards, untimed.
func rewrite(tmp string, files []file) floor {
	root, err := os.MkdirTemp(tmp, "benchsite-floor-")
	must(err)
	defer os.RemoveAll(root)
	data := content(files)
	var before syscall.Rusage
	must(syscall.Getrusage(syscall.RUSAGE_SELF, &before))
	t0 := time.Now()
	must(replay(root, files, data))
	wall := time.Since(t0)
	var after syscall.Rusage
	must(syscall.Getrusage(syscall.RUSAGE_SELF, &after))
	fl := floor{files: len(files), wall: wall, sys: time.Duration(after.Stime.Nano() - before.Stime.Nano())}
	for _, f := range files {
		fl.bytes += f.size
	}
	return fl
}

// content is text as long as the longest of files, for every file to take
// its first bytes from.
func content(files []file) []byte {
	var most int64
	for _, f := range files {
		most = max(most, f.size)
	}
	data := make([]byte, most)
	for i := range data {
		data[i] = "<p>incident</p>\n"[i%16]
	}
	return data
}

// replay makes the folders of files under root, then writes the files from
// two goroutines taking turns, each file the first f.size bytes of data.
func replay(root string, files []file, data []byte) error {
	made := map[string]bool{}
	for _, f := range files {
		if d := filepath.Dir(f.path); !made[d] {
			made[d] = true
			if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
				return err
			}
		}
	}
	const workers = 2
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(files); i += workers {
				if err := writeRaw(filepath.Join(root, files[i].path), data[:files[i].size]); err != nil {
					errs[w] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func writeRaw(path string, data []byte) error {
	fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_TRUNC|syscall.O_CLOEXEC, 0o644)
	if err != nil {
		return &os.PathError{Op: "open", Path: path, Err: err}
	}
	for len(data) > 0 {
		n, err := syscall.Write(fd, data)
		if err != nil {
			syscall.Close(fd)
			return &os.PathError{Op: "write", Path: path, Err: err}
		}
		data = data[n:]
	}
	return syscall.Close(fd)
}
