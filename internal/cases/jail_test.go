//go:build unix

package cases

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"incidentlib/internal/repotest"
)

// hostileFolder writes the shipped content with, in cases/ and pages/, a
// link to a secret file outside the folder, a link to /dev/zero, a named
// pipe, a file over the size limit, and a link inside the folder (which is
// read). It returns the folder and the secret.
func hostileFolder(t *testing.T) (dir, secret string) {
	t.Helper()
	top := t.TempDir()
	dir = filepath.Join(top, "content")
	repotest.CopyTree(t, repotest.Dir(t, "content"), dir)
	secret = "TOKEN=s3cr3t-" + t.Name()
	if err := os.WriteFile(filepath.Join(top, "secret"), []byte(secret+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"cases/IL-9001.json": "../../secret",
		"cases/IL-9002.json": "/dev/zero",
		"pages/leak.en.md":   "../../secret",
		"pages/zero.en.md":   "/dev/zero",
		"cases/IL-9005.json": "IL-0495.json", // inside: read, and a duplicate id
	}
	for name, to := range links {
		if err := os.Symlink(to, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"cases/IL-9003.json", "pages/pipe.en.md"} {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	big := filepath.Join(dir, "cases", "IL-9004.json")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, maxFileBytes+1); err != nil { // sparse: costs no disk
		t.Fatal(err)
	}
	return dir, secret
}

// TestJail loads a content folder holding links out of it, a link to a
// device, named pipes and an oversized file: loading ends, each is an error
// naming the file and saying why, and nothing from outside the folder is in
// the report.
func TestJail(t *testing.T) {
	dir, secret := hostileFolder(t)
	done := make(chan struct{})
	var lib *Library
	var list = struct{ s string }{}
	go func() {
		defer close(done)
		l, d := Load(ContentFS(dir))
		lib = l
		for _, it := range d.Items {
			list.s += it.String() + "\n"
		}
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("Load never returned: a named pipe or a device was opened")
	}
	for _, want := range []string{
		"cases/IL-9001.json: cannot read: a symbolic link leading outside the content folder",
		"cases/IL-9002.json: cannot read: a symbolic link leading outside the content folder",
		"cases/IL-9003.json: cannot read: a named pipe (FIFO): only regular files and folders are read",
		"cases/IL-9004.json: cannot read: larger than 8 MB, the most a content file may hold",
		"pages/leak.en.md: cannot read: a symbolic link leading outside the content folder",
		"pages/zero.en.md: cannot read: a symbolic link leading outside the content folder",
		"pages/pipe.en.md: cannot read: a named pipe (FIFO)",
		`duplicate case id "IL-0495" (also in cases/IL-0495.json)`, // the link inside was read
	} {
		if !strings.Contains(list.s, want) {
			t.Errorf("report lacks %q:\n%s", want, list.s)
		}
	}
	if strings.Contains(list.s, "s3cr3t") {
		t.Errorf("the report shows the file outside the content folder:\n%s", list.s)
	}
	for _, p := range lib.Prose {
		if strings.Contains(p.Body.En, secret) {
			t.Errorf("page %s holds the file outside the content folder", p.Slug)
		}
	}
}

// TestJailFS checks ContentFS alone: what it opens and what it refuses.
func TestJailFS(t *testing.T) {
	dir, _ := hostileFolder(t)
	fsys := ContentFS(dir)
	if _, err := ReadContent(fsys, "cases/IL-9005.json"); err != nil {
		t.Errorf("a link inside the folder: %v", err)
	}
	if _, err := fsys.Open("cases"); err != nil {
		t.Errorf("a folder: %v", err)
	}
	for name, want := range map[string]error{
		"cases/IL-9001.json": errOutside,
		"cases/IL-9002.json": errOutside,
		"cases/IL-9004.json": errTooLarge,
		"../secret":          nil, // not a valid name
		"cases/../../secret": nil,
	} {
		_, err := ReadContent(fsys, name)
		if err == nil || (want != nil && !errors.Is(err, want)) {
			t.Errorf("ReadContent(%s): %v, want %v", name, err, want)
		}
	}
	if _, err := fsys.Open("cases/IL-9003.json"); err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("Open(a named pipe): %v", err)
	}
}

// TestReadContentKinds: the limits hold on any fs.FS, not only ContentFS.
func TestReadContentKinds(t *testing.T) {
	m := fstest.MapFS{
		"pipe": {Mode: os.ModeNamedPipe},
		"dev":  {Mode: os.ModeDevice | os.ModeCharDevice},
		"sock": {Mode: os.ModeSocket},
		"big":  {Data: make([]byte, maxFileBytes+1)},
		"ok":   {Data: []byte("{}")},
	}
	for name, want := range map[string]string{"pipe": "named pipe", "dev": "character device", "sock": "socket", "big": "larger than 8 MB"} {
		if _, err := ReadContent(m, name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
	if b, err := ReadContent(m, "ok"); err != nil || string(b) != "{}" {
		t.Errorf("ok: %q, %v", b, err)
	}
}

// TestTextLimit: a text over maxTextBytes, in a case or as a page, is an
// error with its position, and is not kept.
func TestTextLimit(t *testing.T) {
	m := contentFS(t)
	long := strings.Repeat("a", maxTextBytes+1)
	src := string(m["cases/IL-0495.json"].Data)
	i := strings.Index(src, `"summary":{"en":"`) + len(`"summary":{"en":"`)
	m["cases/IL-0495.json"] = &fstest.MapFile{Data: []byte(src[:i] + long + src[i:])}
	m["pages/long.en.md"] = &fstest.MapFile{Data: []byte(long)}
	m["pages/long.ko.md"] = &fstest.MapFile{Data: []byte("짧다")}
	_, list := Load(m)
	var got []string
	for _, d := range list.Items {
		got = append(got, d.String())
		if d.Field == "summary.en" && (d.Line != 1 || d.Col < 2) {
			t.Errorf("%s: want the position of the text", d)
		}
	}
	report := strings.Join(got, "\n")
	for _, want := range []string{
		"summary.en: a text of ",
		fmt.Sprintf("pages/long.en.md: a text of %d bytes", maxTextBytes+1),
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%.3000s", want, report)
		}
	}
}

// TestFolderReader reads every entry of a hostile cases folder, and a few
// names that are not there, both with the folder reader and with
// ReadContent: the bytes and the errors must be the same. A link from
// cases/ to a file elsewhere in the content folder leaves the folder but
// not the content, and is read.
func TestFolderReader(t *testing.T) {
	dir, secret := hostileFolder(t)
	if err := os.Symlink("../vocab.json", filepath.Join(dir, "cases", "IL-9006.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "cases", "IL-9007.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	fsys := ContentFS(dir)
	r := openFolder(fsys, CasesDir)
	defer r.close()
	if r.root == nil {
		t.Fatal("the folder reader did not open cases/")
	}
	entries, err := os.ReadDir(filepath.Join(dir, "cases"))
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"cases/missing.json", "cases/../site.json", "cases/a/b.json", "site.json", "cases"}
	for _, e := range entries {
		names = append(names, "cases/"+e.Name())
	}
	read, failed := 0, 0
	// One buffer for all the reads, as loading uses it: a file must not
	// keep bytes of the larger one before it.
	var buf []byte
	for _, name := range names {
		got, gotErr := r.read(name, buf)
		if cap(got) > cap(buf) {
			buf = got
		}
		want, wantErr := ReadContent(fsys, name)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || string(got) != string(want) {
			t.Errorf("%s: folder reader gave %d bytes, %v; ReadContent %d bytes, %v", name, len(got), gotErr, len(want), wantErr)
		}
		if strings.Contains(string(got), secret) {
			t.Errorf("%s: read the secret outside the content folder", name)
		}
		if gotErr == nil {
			read++
		} else {
			failed++
		}
	}
	if read < 30 || failed < 6 {
		t.Errorf("%d files read and %d refused: the folder is not what the test means it to be", read, failed)
	}
	if b, err := r.read("cases/IL-9006.json", buf); err != nil || !strings.Contains(string(b), `"components"`) {
		t.Errorf("a link to ../vocab.json: %v", err)
	}
}

// TestCaseFiles reads every case of a content folder again through
// CaseFiles and through Case.AppendRaw: the same bytes, and, for files
// edited, grown, removed or replaced by a link out of the folder since the
// load, the same errors.
func TestCaseFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "content")
	repotest.CopyTree(t, repotest.Dir(t, "content"), dir)
	lib, list := Load(ContentFS(dir))
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	if len(lib.Cases) < 8 {
		t.Fatalf("only %d cases", len(lib.Cases))
	}
	compare := func(when string) (failed int) {
		files := OpenCaseFiles(lib)
		defer files.Close()
		if files.dir == nil || files.dir.root == nil {
			t.Fatal("CaseFiles did not open the cases folder")
		}
		for _, c := range lib.Cases {
			got, gotErr := files.AppendRaw(c, []byte("x"))
			want, wantErr := c.AppendRaw([]byte("x"))
			if string(got) != string(want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("%s: %s: CaseFiles gave %d bytes, %v; AppendRaw %d bytes, %v", when, c.File, len(got), gotErr, len(want), wantErr)
			}
			if gotErr != nil {
				failed++
			}
		}
		return failed
	}
	if n := compare("as loaded"); n != 0 {
		t.Fatalf("%d files failed to read as loaded", n)
	}
	path := func(i int) string { return filepath.Join(dir, filepath.FromSlash(lib.Cases[i].File)) }
	b, err := os.ReadFile(path(0))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(name string, data []byte) {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b1, _ := os.ReadFile(path(1))
	edit(path(0), []byte(strings.Replace(string(b), `"id"`, `"iD"`, 1))) // same size, other bytes
	edit(path(1), append(b1, ' '))                                       // grown
	if err := os.Remove(path(2)); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path(3)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../outside.json", path(3)); err != nil {
		t.Fatal(err)
	}
	edit(filepath.Join(filepath.Dir(dir), "outside.json"), b)
	b4, _ := os.ReadFile(path(4))
	if err := os.Remove(path(4)); err != nil {
		t.Fatal(err)
	}
	edit(filepath.Join(dir, "elsewhere.json"), b4)
	if err := os.Symlink("../elsewhere.json", path(4)); err != nil { // out of cases/, inside the content: read
		t.Fatal(err)
	}
	if n := compare("after the edits"); n != 4 {
		t.Errorf("%d files failed after the edits, want 4", n)
	}
}
