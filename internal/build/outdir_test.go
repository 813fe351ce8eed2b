package build

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"incidentlib"
	"incidentlib/internal/repotest"
)

// sandbox gives a test a home folder and a working folder of its own, so
// that the rules about them are tested without going near the real ones.
func sandbox(t *testing.T) (home, wd string) {
	t.Helper()
	root := t.TempDir()
	home, wd = filepath.Join(root, "home"), filepath.Join(root, "home", "work")
	if err := os.MkdirAll(wd, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Chdir(wd)
	return home, wd
}

// TestOutRefusesFolderOfOtherFiles: a folder that holds files and no marker
// is refused before any work, the message says what to do, and the files
// stay.
func TestOutRefusesFolderOfOtherFiles(t *testing.T) {
	content := smallContent(t)
	out := filepath.Join(t.TempDir(), "mine")
	for _, f := range []string{"notes.txt", "a/b.txt", "c.md", "d", "e", "f", "g"} {
		p := filepath.Join(out, filepath.FromSlash(f))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := tree(t, out)
	_, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out})
	var oe *OutError
	if !errors.As(err, &oe) {
		t.Fatalf("a folder of someone's files was taken: err = %v", err)
	}
	for _, want := range []string{out, "a/, c.md, d, e, f and 2 more", Marker, "Name a new or empty folder"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q:\n%s", want, err)
		}
	}
	sameTree(t, before, tree(t, out), "a refused folder")
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Errorf("a refused build left %d entries beside the folder", len(entries))
	}
}

// TestOutRefusesProtectedFolders: the sources, the folders around and
// inside them, the home and working folders and their parents, and a
// filesystem root are refused whatever they hold, and nothing in them
// changes.
func TestOutRefusesProtectedFolders(t *testing.T) {
	home, wd := sandbox(t)
	content := filepath.Join(wd, "content")
	if err := os.CopyFS(content, os.DirFS(smallContent(t))); err != nil {
		t.Fatal(err)
	}
	templates := filepath.Join(t.TempDir(), "tpl")
	os.CopyFS(templates, os.DirFS(repotest.Dir(t, "templates")))
	empty := filepath.Join(content, "empty")
	os.Mkdir(empty, 0o755)
	before := tree(t, content)
	for _, tc := range []struct{ out, why string }{
		{content, "it is the content folder"},
		{"content", "it is the content folder"},
		{empty, "it is inside the content folder"},
		{filepath.Join(content, "new", "public"), "it is inside the content folder"},
		{wd, "it is the working folder"},
		{".", "it is the working folder"},
		{"..", "it is the home folder"},
		{home, "it is the home folder"},
		{filepath.Dir(home), "it holds the working folder"},
		{"/", "it is the root of a filesystem"},
		{templates, "it is the templates folder"},
		{filepath.Join(templates, "x"), "it is inside the templates folder"},
	} {
		_, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, TemplatesDir: templates, Out: tc.out})
		var oe *OutError
		if !errors.As(err, &oe) || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("-out %s: err = %v, want %q", tc.out, err, tc.why)
		}
	}
	// A folder that holds the content but is neither home nor working
	// folder: one beside them.
	t.Chdir(t.TempDir())
	_, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: wd})
	if err == nil || !strings.Contains(err.Error(), "it holds the content folder") {
		t.Errorf("-out around the content folder: err = %v", err)
	}
	_, _, err = Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: filepath.Dir(home)})
	if err == nil || !strings.Contains(err.Error(), "it holds the home folder") {
		t.Errorf("-out above the home folder: err = %v", err)
	}
	sameTree(t, before, tree(t, content), "content after refused builds")
	if _, err := os.Stat(filepath.Join(templates, "base.html")); err != nil {
		t.Errorf("templates after refused builds: %v", err)
	}
}

// TestOutReplacesOwnBuild: a missing, an empty and an earlier build's
// folder are used; the earlier build's files are replaced as a whole (a
// case removed from the content leaves no page behind), and the marker
// lists every file written.
func TestOutReplacesOwnBuild(t *testing.T) {
	content := smallContent(t)
	dir := t.TempDir()
	missing, empty := filepath.Join(dir, "a", "public"), filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	gone := filepath.Join("en", "cases", "IL-0011", "index.html")
	for i, out := range []string{missing, empty, empty} {
		st, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out})
		if err != nil {
			t.Fatalf("-out %s: %v", out, err)
		}
		if _, err := os.Stat(filepath.Join(out, gone)); (i == 2) != os.IsNotExist(err) {
			t.Errorf("build %d: %s: %v", i, gone, err)
		}
		if i == 2 && st.Removed < 2 {
			t.Errorf("build %d: %d files removed, want the removed case's page and twin at least", i, st.Removed)
		}
		b, err := os.ReadFile(filepath.Join(out, Marker))
		if err != nil {
			t.Fatal(err)
		}
		list, err := parseMarker(b)
		if err != nil {
			t.Fatalf("-out %s: marker: %v", out, err)
		}
		files := tree(t, out)
		delete(files, Marker)
		if len(list.files) != len(files) {
			t.Errorf("the marker lists %d files, the output holds %d", len(list.files), len(files))
		}
		for _, f := range list.files {
			if _, ok := files[f]; !ok {
				t.Errorf("the marker lists %s, which is not in the output", f)
			}
		}
		if i == 1 {
			os.Remove(filepath.Join(content, "cases", "IL-0011.json"))
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d entries beside the outputs, want 2", len(entries))
	}
}

// TestOutSymlink: a link is judged by the folder it points to, which the
// build replaces; the link stays a link.
func TestOutSymlink(t *testing.T) {
	content := smallContent(t)
	dir := t.TempDir()
	target, link := filepath.Join(dir, "real"), filepath.Join(dir, "link")
	os.Mkdir(target, 0o755)
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: link}); err != nil {
			t.Fatal(err)
		}
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link did not stay a link: %v", err)
	}
	if _, err := os.Stat(filepath.Join(target, "en", "index.html")); err != nil {
		t.Errorf("not written where the link points: %v", err)
	}
	// A link to someone's folder is refused like the folder.
	mine, link2 := filepath.Join(dir, "mine"), filepath.Join(dir, "link2")
	os.Mkdir(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "notes.txt"), []byte("x"), 0o644)
	os.Symlink(mine, link2)
	if _, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: link2}); err == nil {
		t.Error("a link to a folder of someone's files was taken")
	}
	// And a link to the content folder is the content folder.
	link3 := filepath.Join(dir, "link3")
	os.Symlink(content, link3)
	if _, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: link3}); err == nil || !strings.Contains(err.Error(), "content folder") {
		t.Errorf("a link to the content folder: %v", err)
	}
}

// temps lists the temporary folders beside out.
func temps(t *testing.T, out string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(filepath.Dir(out), tempPrefix(out)+"*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCancelRemovesTemp: a build cancelled while it writes (Ctrl-C in the
// CLI) stops, says so, removes its temporary folder and keeps the previous
// output.
func TestCancelRemovesTemp(t *testing.T) {
	content := smallContent(t)
	out := filepath.Join(t.TempDir(), "public")
	if _, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out}); err != nil {
		t.Fatal(err)
	}
	before := tree(t, out)
	ctx, cancel := context.WithCancel(context.Background())
	sawTemp := 0
	_, _, err := Run(ctx, Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out, Written: func() {
		sawTemp = len(temps(t, out))
		cancel()
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if sawTemp != 1 {
		t.Errorf("%d temporary folders while writing, want 1", sawTemp)
	}
	if left := temps(t, out); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	sameTree(t, before, tree(t, out), "after a cancelled build")
}

// TestFirstWriteErrorStops: when files cannot be written (here a file
// stands where the en folder goes, as a full disk would fail every write),
// the build stops at the first failure with one error naming the path; the
// previous output is intact and the temporary folder gone.
func TestFirstWriteErrorStops(t *testing.T) {
	content := smallContent(t)
	out := filepath.Join(t.TempDir(), "public")
	if _, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out}); err != nil {
		t.Fatal(err)
	}
	before := tree(t, out)
	spoil := func(dir string) { os.WriteFile(filepath.Join(dir, "en"), nil, 0o644) }
	_, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out, Workers: 4, tempMade: spoil})
	if err == nil {
		t.Fatal("a build that could not write succeeded")
	}
	msg := err.Error()
	if strings.Count(msg, "\n") > 0 || !strings.Contains(msg, filepath.Join(out, "en")+string(filepath.Separator)) ||
		!strings.Contains(msg, "not a directory") {
		t.Errorf("want one line naming the file and the error, got:\n%s", msg)
	}
	sameTree(t, before, tree(t, out), "after a failed write")
	if left := temps(t, out); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// childEnv makes the test binary a build that waits, forever, between
// writing its files and swapping them in: the moment a kill hurts most.
const childEnv = "INCIDENTLIB_TEST_BUILD_CHILD"

func buildChild(out string) {
	content := os.Getenv(childEnv + "_CONTENT")
	_, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out, Written: func() {
		os.WriteFile(out+".ready", nil, 0o644)
		select {}
	}})
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
	}
	os.Exit(3)
}

// TestKilledBuildLeftoversRemoved: a build killed with SIGKILL cannot clean
// up; the next build of the same output recognises its temporary folder
// (its process is gone, it holds the marker) and removes it.
func TestKilledBuildLeftoversRemoved(t *testing.T) {
	content := smallContent(t)
	out := filepath.Join(t.TempDir(), "public")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+out, childEnv+"_CONTENT="+content)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Minute) // a busy machine's build, with room
	for {
		if _, err := os.Stat(out + ".ready"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the child build never got to writing")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	left := temps(t, out)
	if len(left) != 1 {
		t.Fatalf("the killed build left %v, want one temporary folder", left)
	}
	// A temporary folder of a build that still runs (here this process,
	// which holds its lock) is not touched; one named after a process that
	// is alive but holds no lock is a killed build's whose id was given to
	// another process since (pid 1 is always alive), and goes.
	mine, err := os.MkdirTemp(filepath.Dir(out), tempPrefix(out)+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(mine, Marker), nil, 0o644)
	unlock, err := lockTemp(mine)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	reused, err := os.MkdirTemp(filepath.Dir(out), tempPrefix(out)+"1-")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(reused, Marker), nil, 0o644)
	if _, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out}); err != nil {
		t.Fatal(err)
	}
	if got := temps(t, out); len(got) != 1 || got[0] != mine {
		t.Errorf("after the next build: %v, want only %s (the killed build's and the one of a reused process id go)", got, mine)
	}
	if _, err := os.Stat(filepath.Join(out, "en", "index.html")); err != nil {
		t.Error(err)
	}
}

// TestCancelBeforeWriting: a build cancelled before it starts writing
// returns at once, writes nothing and leaves no temporary folder.
func TestCancelBeforeWriting(t *testing.T) {
	content := smallContent(t)
	out := filepath.Join(t.TempDir(), "public")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := Run(ctx, Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 0 {
		t.Errorf("a build cancelled before writing left %d entries", len(entries))
	}
}

// TestOutMarkerAloneNotEnough: a marker that lists nothing (empty, foreign,
// or an old one) does not make a folder disposable, nor does a marker
// copied with an output into a folder of someone's files (cp -a public/.
// ~/www/); files put deep into an output are found too. Each is refused
// with the list of what the last build did not write, and nothing changes;
// -force-out takes the folder all the same.
func TestOutMarkerAloneNotEnough(t *testing.T) {
	content := smallContent(t)
	dir := t.TempDir()
	built := filepath.Join(dir, "public")
	if _, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: built}); err != nil {
		t.Fatal(err)
	}
	oldMarker := "This folder was written by incidentlib build, which replaces it as a whole on\n" +
		"the next build. Keep no files of your own in it.\n"
	for _, tc := range []struct {
		name   string
		make   func(out string)
		listed string
	}{
		{"empty marker", func(out string) { os.WriteFile(filepath.Join(out, Marker), nil, 0o644) }, "index.php, notes/"},
		{"marker of an older build", func(out string) { os.WriteFile(filepath.Join(out, Marker), []byte(oldMarker), 0o644) }, "index.php, notes/"},
		{"copied output", func(out string) { os.CopyFS(out, os.DirFS(built)) }, "index.php, notes/, which the last build did not write"},
		{"file deep inside", func(out string) {
			os.CopyFS(out, os.DirFS(built))
			os.RemoveAll(filepath.Join(out, "index.php"))
			os.RemoveAll(filepath.Join(out, "notes"))
			os.WriteFile(filepath.Join(out, "en", "cases", "mine.html"), []byte("mine"), 0o644)
			os.MkdirAll(filepath.Join(out, "api", "drafts", "a"), 0o755)
			os.WriteFile(filepath.Join(out, "api", "drafts", "a", "b.json"), []byte("{}"), 0o644)
		}, "api/drafts/, en/cases/mine.html, which the last build did not write"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "www")
			os.MkdirAll(filepath.Join(out, "notes"), 0o755)
			os.WriteFile(filepath.Join(out, "index.php"), []byte("<?php"), 0o644)
			os.WriteFile(filepath.Join(out, "notes", "todo.txt"), []byte("mine"), 0o644)
			tc.make(out)
			before := tree(t, out)
			o := Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out}
			_, _, err := Run(context.Background(), o)
			var oe *OutError
			if !errors.As(err, &oe) || !strings.Contains(err.Error(), tc.listed) || !strings.Contains(err.Error(), "-force-out") {
				t.Fatalf("err = %v, want a refusal listing %q", err, tc.listed)
			}
			sameTree(t, before, tree(t, out), "a refused folder")
			if left := temps(t, out); len(left) > 0 {
				t.Errorf("left behind: %v", left)
			}
			o.ForceOut = true
			st, _, err := Run(context.Background(), o)
			if err != nil {
				t.Fatalf("-force-out: %v", err)
			}
			after := tree(t, out)
			sameTree(t, tree(t, built), after, "-force-out against a clean build")
			if st.Removed == 0 {
				t.Error("-force-out removed nothing")
			}
		})
	}
}

// TestOutJudgedAsTheKernelResolves: "lnk/../realc" is realc beside where
// lnk points, not beside lnk, so -out inside it is inside the content
// folder; a dangling -out link stays a link to the folder it names, which
// the build makes.
func TestOutJudgedAsTheKernelResolves(t *testing.T) {
	_, wd := sandbox(t)
	root := t.TempDir()
	realc := filepath.Join(root, "b", "realc")
	if err := os.CopyFS(realc, os.DirFS(smallContent(t))); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(root, "b", "sub"), 0o755)
	os.Symlink(filepath.Join(root, "b", "sub"), filepath.Join(wd, "lnk"))
	before := tree(t, realc)
	sep := string(filepath.Separator)
	for _, content := range []string{"lnk" + sep + ".." + sep + "realc", wd + sep + "lnk" + sep + ".." + sep + "realc"} {
		_, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: filepath.Join(realc, "public")})
		if err == nil || !strings.Contains(err.Error(), "inside the content folder") {
			t.Errorf("-content %s -out realc/public: err = %v", content, err)
		}
	}
	sameTree(t, before, tree(t, realc), "the content")

	target, link := filepath.Join(root, "site", "public"), filepath.Join(root, "public")
	os.Symlink(target, link)
	if _, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: realc, Out: link}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the dangling link did not stay a link: %v", err)
	}
	if _, err := os.Stat(filepath.Join(target, "en", "index.html")); err != nil {
		t.Errorf("not written where the link points: %v", err)
	}
}

// TestCheckProfile: profiles may not land in the content, templates,
// static or output folders (as the kernel resolves the path), nor
// overwrite any file.
func TestCheckProfile(t *testing.T) {
	_, wd := sandbox(t)
	content := filepath.Join(wd, "content")
	os.CopyFS(content, os.DirFS(smallContent(t)))
	tpl := filepath.Join(t.TempDir(), "tpl")
	os.Mkdir(tpl, 0o755)
	out := filepath.Join(wd, "public")
	os.Symlink(filepath.Join(content, "cases"), filepath.Join(wd, "lnk"))
	os.WriteFile(filepath.Join(wd, "notes.txt"), []byte("mine"), 0o644)
	os.WriteFile(filepath.Join(wd, "old.prof"), []byte{0x1f, 0x8b, 8, 0}, 0o644)
	os.WriteFile(filepath.Join(wd, "empty.prof"), nil, 0o644)
	o := Options{Content: "content", TemplatesDir: tpl, Out: "public"}
	for _, tc := range []struct{ file, want string }{
		{"content/cases/IL-0011.json", "inside the content folder"},
		{"lnk/IL-0011.json", "inside the content folder"},
		{"lnk/../new.prof", "inside the content folder"},
		{filepath.Join(tpl, "cpu.prof"), "inside the templates folder"},
		{filepath.Join(out, "cpu.prof"), "inside the output folder"},
		{"notes.txt", "exists"},
		{".", "not a file"},
		{"cpu.prof", ""},
		{"old.prof", "exists"},
		{"empty.prof", "exists"},
		{os.DevNull, ""},
	} {
		err := CheckProfile(tc.file, o)
		if (err == nil) != (tc.want == "") || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.file, err, tc.want)
		}
	}
}
