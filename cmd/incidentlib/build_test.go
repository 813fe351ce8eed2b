package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"

	"incidentlib/internal/build"
	"incidentlib/internal/repotest"
)

// TestBuildProfilePaths: -cpuprofile and -memprofile may not land in the
// content or output folders (as the kernel resolves the path, links first),
// nor overwrite any file (a gzip backup or an earlier profile included, #39
// row 9); the build refuses before any work with status 2 and the file
// stays as it was.
func TestBuildProfilePaths(t *testing.T) {
	root := t.TempDir()
	t.Setenv("HOME", filepath.Join(root, "home"))
	t.Chdir(root)
	content := repotest.ContentDir(t)
	os.Symlink(filepath.Join(content, "cases"), "lnk")
	os.WriteFile("notes.txt", []byte("mine"), 0o644)
	backup := []byte{0x1f, 0x8b, 8, 0, 'b', 'a', 'c', 'k', 'u', 'p'}
	os.WriteFile("backup.tar.gz", backup, 0o644)
	os.WriteFile("old.prof", backup, 0o644)
	caseFile := filepath.Join(content, "cases", "IL-0011.json")
	orig, err := os.ReadFile(caseFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-cpuprofile", caseFile}, "inside the content folder"},
		{[]string{"-memprofile", "lnk/IL-0011.json"}, "inside the content folder"},
		{[]string{"-cpuprofile", "lnk/../IL-0011.json"}, "inside the content folder"},
		{[]string{"-cpuprofile", "public/cpu.prof"}, "inside the output folder"},
		{[]string{"-memprofile", "notes.txt"}, "exists"},
		{[]string{"-cpuprofile", "backup.tar.gz"}, "exists"},
		{[]string{"-memprofile", "old.prof"}, "exists"},
		{[]string{"-cpuprofile", "p.prof", "-memprofile", "./p.prof"}, "the same file"},
	} {
		var so, se bytes.Buffer
		args := append([]string{"build", "-content", content, "-out", "public"}, tc.args...)
		if code := run(args, &so, &se); code != 2 || !strings.Contains(se.String(), tc.want) {
			t.Errorf("%v: status %d, %s; want 2 and %q", tc.args, code, se.String(), tc.want)
		}
	}
	if b, _ := os.ReadFile(caseFile); !bytes.Equal(b, orig) {
		t.Error("the case file changed")
	}
	if b, _ := os.ReadFile("notes.txt"); string(b) != "mine" {
		t.Error("notes.txt changed")
	}
	for _, f := range []string{"backup.tar.gz", "old.prof"} {
		if b, _ := os.ReadFile(f); !bytes.Equal(b, backup) {
			t.Errorf("%s changed", f)
		}
	}
	if _, err := os.Stat("public"); !os.IsNotExist(err) {
		t.Errorf("a refused build wrote: %v", err)
	}
	// A profile into a new file is written.
	var so, se bytes.Buffer
	for i, f := range []string{"cpu1.prof", "cpu2.prof"} {
		if code := run([]string{"build", "-content", content, "-out", "public", "-cpuprofile", f, "-v"}, &so, &se); code != 0 {
			t.Fatalf("build %d: status %d\n%s", i, code, se.String())
		}
		if b, _ := os.ReadFile(f); len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
			t.Errorf("%s is not a profile", f)
		}
	}
	if !strings.Contains(so.String(), "files: 0 written,") {
		t.Errorf("-v of an unchanged rebuild does not say 0 files were written:\n%s", so.String())
	}
	if !regexp.MustCompile(`htmlexec: [1-9][0-9]* templates compiled, 0 fallbacks to the standard library at run time`).MatchString(so.String()) {
		t.Errorf("-v does not give the gauge of the template engines:\n%s", so.String())
	}
}

// TestGCPace: a build collects at a slow pace while its content loads and
// at Go's default pace from there on, under a ceiling that grows with the
// cases; GOGC and GOMEMLIMIT in the environment win.
func TestGCPace(t *testing.T) {
	pace := func() int { p := debug.SetGCPercent(100); debug.SetGCPercent(p); return p }
	limit := func() int64 { return debug.SetMemoryLimit(-1) }
	defer debug.SetGCPercent(pace())
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	defer func(f func(int)) { buildLoaded = f }(buildLoaded)
	root := t.TempDir()
	t.Setenv("HOME", filepath.Join(root, "home"))
	content := repotest.ContentDir(t)

	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	debug.SetGCPercent(100)
	tuneGC(true)
	if got := pace(); got != loadingGCPercent {
		t.Fatalf("pace before the build = %d, want %d", got, loadingGCPercent)
	}
	if got := limit(); got != maxBuildMemory {
		t.Fatalf("ceiling before the build = %d, want %d", got, maxBuildMemory)
	}
	var so, se bytes.Buffer
	if code := run([]string{"build", "-content", content, "-out", filepath.Join(root, "public")}, &so, &se); code != 0 {
		t.Fatalf("build: status %d\n%s", code, se.String())
	}
	if got := pace(); got != 100 {
		t.Errorf("pace after the content loaded = %d, want 100", got)
	}
	lib, list, err := build.Load(content)
	if err != nil || list.Errors() > 0 {
		t.Fatal(err, list.Err())
	}
	if got, want := limit(), buildMemoryLimit(len(lib.Cases)); got != want || want <= baseBuildMemory || want >= maxBuildMemory {
		t.Errorf("ceiling after %d cases loaded = %d, want %d, between %d and %d", len(lib.Cases), got, want, baseBuildMemory, maxBuildMemory)
	}
	if buildMemoryLimit(10000) >= 400<<20 || buildMemoryLimit(1_000_000) != maxBuildMemory {
		t.Errorf("ceilings at 10,000 and 1,000,000 cases: %d and %d", buildMemoryLimit(10000), buildMemoryLimit(1_000_000))
	}

	t.Setenv("GOMEMLIMIT", "1GiB")
	debug.SetMemoryLimit(1 << 30)
	buildLoaded = nil
	tuneGC(true)
	if buildLoaded == nil {
		t.Fatal("with GOMEMLIMIT alone set, no hook sets the pace")
	}
	buildLoaded(10000)
	if got := limit(); got != 1<<30 {
		t.Errorf("with GOMEMLIMIT=1GiB the ceiling became %d", got)
	}

	t.Setenv("GOGC", "150")
	debug.SetGCPercent(150)
	buildLoaded = nil
	tuneGC(true)
	if got := pace(); got != 150 || buildLoaded != nil {
		t.Errorf("with GOGC=150: pace %d, a hook set: %v", got, buildLoaded != nil)
	}
}
