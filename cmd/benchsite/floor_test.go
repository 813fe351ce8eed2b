package main

import (
	"os"
	"path/filepath"
	"testing"
)

// The write floor must write what the build wrote: every file, at its size,
// in its folder, and leave nothing behind.
func TestFloorRewritesTheSameFiles(t *testing.T) {
	src := t.TempDir()
	want := map[string]int{"index.html": 5, "en/cases/IL-1/index.html": 13000, "en/cases/IL-1/index.md": 0, "api/v1/x.json": 70000}
	for p, n := range want {
		full := filepath.Join(src, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files := list(src)
	if len(files) != len(want) {
		t.Fatalf("listed %d files, want %d: %v", len(files), len(want), files)
	}
	var total int64
	for _, f := range files {
		if int64(want[filepath.ToSlash(f.path)]) != f.size {
			t.Errorf("%s: size %d, want %d", f.path, f.size, want[f.path])
		}
		total += f.size
	}

	dst := t.TempDir()
	if err := replay(dst, files, content(files)); err != nil {
		t.Fatal(err)
	}
	again := list(dst)
	if len(again) != len(files) {
		t.Fatalf("replay wrote %d files, want %d", len(again), len(files))
	}
	for i := range again {
		if again[i] != files[i] {
			t.Errorf("replay wrote %v, want %v", again[i], files[i])
		}
	}

	tmp := t.TempDir()
	fl := rewrite(tmp, files)
	if fl.files != len(want) || fl.bytes != total || fl.wall <= 0 {
		t.Errorf("floor = %+v, want %d files and %d bytes", fl, len(want), total)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("rewrite left %d entries in %s", len(left), tmp)
	}
}

func TestWriteRaw(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("an older and longer text"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeRaw(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Errorf("file holds %q, want %q", b, "new")
	}
	if err := writeRaw(filepath.Join(t.TempDir(), "no", "such", "f"), nil); err == nil {
		t.Error("writing into a missing folder succeeded")
	}
}
