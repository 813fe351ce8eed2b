package build

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"incidentlib"
	"incidentlib/internal/gencases"
)

// rebuildCases is the size of the library of TestRebuildKeepsUnchanged,
// 400 cases (20 with -short); INCIDENTLIB_REBUILD_CASES=10000 runs it at
// the size the issue names.
func rebuildCases(t *testing.T) int {
	if v := os.Getenv("INCIDENTLIB_REBUILD_CASES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if testing.Short() {
		return 20
	}
	return 400
}

// fileState is what a sync tool sees of a file, and the file itself.
type fileState struct {
	mtime time.Time
	ino   uint64
	size  int64
}

// states records every file of dir.
func states(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	m := map[string]fileState{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = fileState{info.ModTime(), info.Sys().(*syscall.Stat_t).Ino, info.Size()}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// ageFiles sets the time of every file of dir far into the past, so that a
// file written again cannot have the same time by chance.
func ageFiles(t *testing.T, dir string, when time.Time) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(p, when, when)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// titleEdit is what editTitle adds to a title, and editTerms the index
// terms it brings, every one new to the case and all but "edit" new to the
// library.
const titleEdit = " (edited) quokka zyxwvut blorptastic frobnicated"

var editTerms = []string{"edit", "quokka", "zyxwvut", "blorptastic", "frobnicat"}

// editTitle changes the English title of one case of a generated library.
func editTitle(t *testing.T, file string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&c); err != nil {
		t.Fatal(err)
	}
	title := c["title"].(map[string]any)
	title["en"] = title["en"].(string) + titleEdit
	if b, err = json.MarshalIndent(c, "", "  "); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRebuildKeepsUnchanged: a build over an earlier output leaves every
// file whose bytes did not change as it was (same file, same time), so that
// deploys move only what changed: after editing one case's title, at most
// 300 files change, the output is byte-identical to a clean build, -v's
// counts add up, and a build that is interrupted after linking leaves the
// earlier output whole, times included.
func TestRebuildKeepsUnchanged(t *testing.T) {
	t.Parallel() // no global state: runs beside the other large builds
	n := rebuildCases(t)
	content := filepath.Join(t.TempDir(), "content")
	if err := gencases.WriteDir(content, gencases.Options{N: n, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, clean := filepath.Join(dir, "public"), filepath.Join(dir, "clean")
	opt := Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out}
	first, _, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if first.Kept != 0 || first.Written != first.Files || first.Removed != 0 {
		t.Errorf("first build: %d written, %d kept, %d removed of %d files", first.Written, first.Kept, first.Removed, first.Files)
	}
	past := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	ageFiles(t, out, past)
	before := states(t, out)

	editTitle(t, filepath.Join(content, "cases", gencases.CaseID(n/2, n)+".json"))

	// Interrupted once every file is placed: the earlier output is whole.
	ctx, cancel := context.WithCancel(context.Background())
	opt.Written = cancel
	if _, _, err := Run(ctx, opt); err == nil {
		t.Fatal("the interrupted build succeeded")
	}
	opt.Written = nil
	for p, s := range states(t, out) {
		if s != before[p] {
			t.Errorf("an interrupted build changed %s: %+v, was %+v", p, s, before[p])
		}
	}

	st, _, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	after := states(t, out)
	changed, inSearch := 0, []string{}
	for p, s := range after {
		b, ok := before[p]
		if !ok || s != b {
			changed++
			if strings.HasPrefix(p, "search/") {
				inSearch = append(inSearch, p)
			}
			if ok && !s.mtime.After(past) {
				t.Errorf("%s was written again but kept its old time", p)
			}
		}
	}
	t.Logf("%d cases, %d files: %d changed, %d of the search index; -v: %d written, %d kept, %d removed", n, len(after), changed, len(inSearch), st.Written, st.Kept, st.Removed)
	if changed == 0 || changed > 300 {
		t.Errorf("%d files changed after editing one title, want 1 to 300", changed)
	}
	// The search index changes where the edit's terms are: the case's
	// record, and per term its bucket, its suggestion list and, when a cut
	// moves, a neighbouring bucket or a group file; the manifest when the
	// groups change. Nothing moves because a bucket was cut at another
	// place or a score elsewhere was computed from another average.
	sort.Strings(inSearch)
	if limit := 3*len(editTerms) + 2; len(inSearch) > limit {
		t.Errorf("%d files of the search index changed after editing one title, want at most %d: %v", len(inSearch), limit, inSearch)
	}
	// The marker is left out of the counts.
	if st.Written+st.Kept != st.Files || st.Kept < len(before)-changed-1 || st.Written > changed {
		t.Errorf("-v counts %d written, %d kept of %d files; %d changed", st.Written, st.Kept, st.Files, changed)
	}

	if _, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: clean}); err != nil {
		t.Fatal(err)
	}
	sameTree(t, tree(t, clean), tree(t, out), "a rebuild against a clean build")
	sameDirs(t, clean, out)
}

// sameDirs compares the folders of two trees, which tree leaves out.
func sameDirs(t *testing.T, a, b string) {
	t.Helper()
	dirs := func(root string) map[string]bool {
		m := map[string]bool{}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				rel, _ := filepath.Rel(root, p)
				m[rel] = true
			}
			return err
		})
		return m
	}
	da, db := dirs(a), dirs(b)
	for d := range da {
		if !db[d] {
			t.Errorf("folder %s missing from %s", d, b)
		}
	}
	for d := range db {
		if !da[d] {
			t.Errorf("folder %s not in %s", d, a)
		}
	}
}
