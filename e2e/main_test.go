// Package e2e tests the whole site as incidentlib builds it from the real
// content: every case page in both languages in a headless browser (from
// disk and over HTTP), the Nu HTML checker over every page and linkinator
// over every link. TestMain builds the command and the site once; if either
// fails, every test fails with the command's output.
//
// go test caches a passing run by the files the test process itself read,
// and it cannot see what the built command reads. So the setup stats every
// source file of the repository, which makes an edit to a template, a case
// or Go code anywhere invalidate the cached result.
package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"incidentlib/internal/webtest"
)

var (
	tmpDir    string
	binOnce   sync.Once
	binErr    string
	setupOnce sync.Once
	// publicDir is the built site; setupErr says why there is none.
	publicDir string
	// offlineDir is the same site built with -offline, for file:// tests:
	// links name index.html and nothing needs a server (no integrity
	// attributes, which browsers cannot check on file://).
	offlineDir string
	setupErr   string
	// contentDir is the repository's content folder the site was built from.
	contentDir string
)

func TestMain(m *testing.M) {
	tmp, err := os.MkdirTemp("", "incidentlib-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	tmpDir = tmp
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

// setup builds the binary and the site into tmp, or records why it could not.
// It runs inside a test (from site), not in TestMain, because go test
// records the files a test reads only while tests run.
func setup(tmp string) {
	root, err := webtest.RepoRoot()
	if err != nil {
		setupErr = err.Error()
		return
	}
	if err := statSources(root); err != nil {
		setupErr = err.Error()
		return
	}
	contentDir = filepath.Join(root, "content")
	if binErr != "" {
		setupErr = binErr
		return
	}
	bin := filepath.Join(tmp, "incidentlib")
	out := filepath.Join(tmp, "public")
	start := time.Now()
	if o, err := run(root, bin, "build", "-content", contentDir, "-out", out); err != nil {
		setupErr = fmt.Sprintf("incidentlib build -content %s -out %s: %v\n%s", contentDir, out, err, o)
		return
	}
	if _, err := os.Stat(out); err != nil {
		setupErr = fmt.Sprintf("incidentlib build succeeded but wrote no %s: %v", out, err)
		return
	}
	fmt.Fprintf(os.Stderr, "e2e: built the site in %v\n", time.Since(start).Round(time.Millisecond))
	off := filepath.Join(tmp, "offline")
	if o, err := run(root, bin, "build", "-offline", "-content", contentDir, "-out", off); err != nil {
		setupErr = fmt.Sprintf("incidentlib build -offline -content %s -out %s: %v\n%s", contentDir, off, err, o)
		return
	}
	publicDir, offlineDir = out, off
}

// buildBinary builds the command into tmp, or records why it could not.
func buildBinary(tmp string) {
	root, err := webtest.RepoRoot()
	if err != nil {
		binErr = err.Error()
		return
	}
	bin := filepath.Join(tmp, "incidentlib")
	if out, err := run(root, "go", "build", "-o", bin, "./cmd/incidentlib"); err != nil {
		binErr = fmt.Sprintf("go build -o %s ./cmd/incidentlib: %v\n%s", bin, err, out)
	}
}

// binary returns the built command, or fails the test with the reason
// there is none. Unlike site it is no heavy test: -short runs it.
func binary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() { buildBinary(tmpDir) })
	if binErr != "" {
		t.Fatalf("no command to test: %s", binErr)
	}
	return filepath.Join(tmpDir, "incidentlib")
}

// offline returns the offline build of the site.
func offline(t *testing.T) string {
	t.Helper()
	site(t)
	return offlineDir
}

// skipDirs are folders under the repository root that hold no input of the
// site: tools, version control and build output.
var skipDirs = map[string]bool{".git": true, "node_modules": true, "public": true, "bundle": true, "dist": true, ".cache": true}

// statSources stats every file under root except skipDirs; see the package
// comment for why.
func statSources(root string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // removed while we walk: someone is editing
		}
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (skipDirs[d.Name()] || strings.HasPrefix(d.Name(), "public.")) && filepath.Dir(p) == root {
				return filepath.SkipDir
			}
			return nil
		}
		if _, err := os.Stat(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	})
}

func run(dir, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	return buf.Bytes(), err
}

// site returns the built public folder, or fails the test with the reason
// there is none. Every test of the built site drives a browser or an
// external checker, so -short skips them all here.
func site(t *testing.T) string {
	t.Helper()
	webtest.Heavy(t, "tests the built site in a browser or an external checker")
	binary(t)
	setupOnce.Do(func() { setup(tmpDir) })
	if setupErr != "" {
		t.Fatalf("no site to test: %s", setupErr)
	}
	return publicDir
}

// caseInfo is the part of a case JSON the page checks need.
type caseInfo struct {
	ID    string            `json:"id"`
	Title map[string]string `json:"title"`
}

// cases reads every content/cases/*.json, sorted by ID.
func cases(t *testing.T) []caseInfo {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(contentDir, "cases", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no case in %s", filepath.Join(contentDir, "cases"))
	}
	var out []caseInfo
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var c caseInfo
		if err := json.Unmarshal(b, &c); err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if c.ID == "" {
			t.Errorf("%s: no id", f)
			continue
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// normSpace collapses runs of white space, as a reader sees them.
func normSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
