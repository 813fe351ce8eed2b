package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"incidentlib/internal/repotest"
)

// TestBuildProfilePaths: -cpuprofile and -memprofile may not land in the
// content or output folders (as the kernel resolves the path, links first),
// nor overwrite a file that is not a profile; the build refuses before any
// work with status 2 and the file stays as it was.
func TestBuildProfilePaths(t *testing.T) {
	root := t.TempDir()
	t.Setenv("HOME", filepath.Join(root, "home"))
	t.Chdir(root)
	content := repotest.CopyDir(t, "content")
	os.Symlink(filepath.Join(content, "cases"), "lnk")
	os.WriteFile("notes.txt", []byte("mine"), 0o644)
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
		{[]string{"-memprofile", "notes.txt"}, "is not a profile"},
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
	if _, err := os.Stat("public"); !os.IsNotExist(err) {
		t.Errorf("a refused build wrote: %v", err)
	}
	// A profile over an earlier profile is fine.
	var so, se bytes.Buffer
	for i := 0; i < 2; i++ {
		if code := run([]string{"build", "-content", content, "-out", "public", "-cpuprofile", "cpu.prof", "-v"}, &so, &se); code != 0 {
			t.Fatalf("build %d: status %d\n%s", i, code, se.String())
		}
	}
	if !strings.Contains(so.String(), "files: 0 written,") {
		t.Errorf("-v of an unchanged rebuild does not say 0 files were written:\n%s", so.String())
	}
	if !regexp.MustCompile(`htmlexec: [1-9][0-9]* templates compiled, 0 fallbacks to the standard library at run time`).MatchString(so.String()) {
		t.Errorf("-v does not give the gauge of the template engines:\n%s", so.String())
	}
}
