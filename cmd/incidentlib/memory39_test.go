//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"incidentlib/internal/repotest"
)

// TestMemoryPerFileSize (#39): the memory of check and build is bounded
// by the size of what they read: with 20 case files of nearly 8 MB each
// (the most a content file may hold: half of them a case with an 8 MB
// summary, which the library keeps, half unknown keys by the thousand,
// which it must not) rather than 4, their peak grows by at most three
// times the bytes added (measured: 1.5× to 1.8× for check, 0.9× for
// build; the garbage collector's pace makes it vary). Before
// the problem cap, six 8 MB files of unknown keys ran build out of memory.
func TestMemoryPerFileSize(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 288 MB of case files and runs check and build on them")
	}
	base := repotest.CopyDir(t, "content")
	orig, err := os.ReadFile(filepath.Join(base, "cases", "IL-0495.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Two kinds of large file: one with a valid case's fields and an
	// 8 MB summary, one of unknown keys.
	bigSummary := strings.Replace(string(orig), `"summary":{"en":"`, `"summary":{"en":"`+strings.Repeat("word [a]( ", 780_000), 1)
	var keys strings.Builder
	keys.WriteString(`{"id":"IL-9999"`)
	for i := 0; keys.Len() < 7_900_000; i++ {
		fmt.Fprintf(&keys, `,"unknown%07d":"%s"`, i, strings.Repeat("x", 40))
	}
	keys.WriteString("}")
	peak := func(files int, args ...string) int64 {
		content := filepath.Join(t.TempDir(), "content")
		if err := os.CopyFS(content, os.DirFS(base)); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < files; i++ {
			body := bigSummary
			if i%2 == 1 {
				body = keys.String()
			}
			id := fmt.Sprintf("IL-%04d", 9000+i)
			body = strings.Replace(strings.Replace(body, `"IL-0495"`, `"`+id+`"`, 1), `"IL-9999"`, `"`+id+`"`, 1)
			if err := os.WriteFile(filepath.Join(content, "cases", id+".json"), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		a := append(append([]string{}, args...), "-content", content)
		if args[0] == "build" {
			a = append(a, "-out", filepath.Join(t.TempDir(), "public"))
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), mainEnv+"="+strings.Join(a, "\n"))
		out, _ := cmd.CombinedOutput()
		if cmd.ProcessState == nil {
			t.Fatalf("%v did not run:\n%.1000s", a, out)
		}
		if !cmd.ProcessState.Exited() {
			t.Fatalf("%v with %d large files: %v\n%.1000s", a, files, cmd.ProcessState, out)
		}
		return cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss >> 10 // MB
	}
	const few, many = 4, 20
	added := int64(many-few) * int64(len(bigSummary)+keys.Len()) / 2 >> 20 // MB
	for _, cmd := range []string{"check", "build"} {
		a, b := peak(few, cmd), peak(many, cmd)
		t.Logf("%s: peak %d MB with %d files of 8 MB, %d MB with %d (%d MB more read)", cmd, a, few, b, many, added)
		if b-a > 3*added {
			t.Errorf("%s: peak memory grew by %d MB for %d MB more content", cmd, b-a, added)
		}
	}
}
