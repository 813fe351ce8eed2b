//go:build unix

package build

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"incidentlib"
)

// otherDevice makes the folders for which other says so look like another
// filesystem to the build (as a volume mounted there would), for the rest
// of the test: the build's own view of devices, faked where a test cannot
// mount.
func otherDevice(t *testing.T, other func(path string) bool) {
	t.Helper()
	orig := dirMount
	dirMount = func(fd int, path string) (mountKey, error) {
		k, err := orig(fd, path)
		if other(path) {
			k.Dev, k.Mnt = k.Dev+1000, k.Mnt+1000
		}
		return k, err
	}
	t.Cleanup(func() { dirMount = orig })
}

// fakeMounts makes the build see mount points at the given paths, besides
// the real ones.
func fakeMounts(t *testing.T, points ...string) {
	t.Helper()
	orig := mountPoints
	mountPoints = func() ([]string, error) {
		real, err := orig()
		return append(real, points...), err
	}
	t.Cleanup(func() { mountPoints = orig })
}

func opts(content, out string) Options {
	return Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: content, Out: out}
}

// TestOutMountInsideRefused: a volume mounted inside the output (here a
// folder the build is told is on another device) is refused and named,
// with -force-out too, and none of its files, nor the output, changes.
// The same when the system's list of mounts names it: then before any
// work.
func TestOutMountInsideRefused(t *testing.T) {
	content := smallContent(t)
	out := filepath.Join(t.TempDir(), "public")
	if _, _, err := Run(context.Background(), opts(content, out)); err != nil {
		t.Fatal(err)
	}
	vol := filepath.Join(out, "en", "vol")
	os.Mkdir(vol, 0o755)
	os.WriteFile(filepath.Join(vol, "data.db"), []byte("precious"), 0o644)
	before := tree(t, out)
	otherDevice(t, func(p string) bool { return filepath.Base(p) == "vol" })
	o := opts(content, out)
	o.ForceOut = true
	_, _, err := Run(context.Background(), o)
	var oe *OutError
	if !errors.As(err, &oe) || !strings.Contains(err.Error(), "another filesystem is mounted inside it (en/vol/)") {
		t.Fatalf("err = %v, want a refusal naming en/vol/", err)
	}
	sameTree(t, before, tree(t, out), "after a refused build")
	if left := temps(t, out); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}

	fakeMounts(t, vol)
	o.Content = filepath.Join(t.TempDir(), "missing") // refused before the content is read
	_, _, err = Run(context.Background(), o)
	if !errors.As(err, &oe) || !strings.Contains(err.Error(), "en/vol/") {
		t.Fatalf("with the mount listed: err = %v, want a refusal naming en/vol/", err)
	}
}

// TestRemoveTreeStaysOnItsFilesystem: removal never enters another
// filesystem; what it leaves is listed.
func TestRemoveTreeStaysOnItsFilesystem(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "old")
	for _, f := range []string{"a/b/c.html", "a/vol/keep.txt", "d.html"} {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x"), 0o644)
	}
	otherDevice(t, func(p string) bool { return filepath.Base(p) == "vol" })
	skipped, err := removeTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || skipped[0] != filepath.Join(dir, "a", "vol") {
		t.Errorf("skipped %v, want a/vol", skipped)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a", "vol", "keep.txt")); err != nil || string(b) != "x" {
		t.Errorf("the other filesystem's file: %q, %v", b, err)
	}
	for _, gone := range []string{"a/b", "d.html"} {
		if _, err := os.Lstat(filepath.Join(dir, gone)); !os.IsNotExist(err) {
			t.Errorf("%s not removed: %v", gone, err)
		}
	}
}

// TestOutReplacedDespiteLeftovers: when the old output cannot be removed
// completely after the new one is in place (a volume mounted into it after
// the last check of the old output, just before the swap: one mounted
// earlier stops the build, see recheckOut), the build succeeds, says what
// it left, and the new output is there: the status tells whether the
// output was replaced.
func TestOutReplacedDespiteLeftovers(t *testing.T) {
	content := smallContent(t)
	out := filepath.Join(t.TempDir(), "public")
	if _, _, err := Run(context.Background(), opts(content, out)); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(content, "pages", "about.en.md"), []byte("# About\n\nChanged.\n"), 0o644)
	vol := filepath.Join(out, "api", "vol")
	var mounted atomic.Bool
	otherDevice(t, func(p string) bool { return mounted.Load() && filepath.Base(p) == "vol" })
	o := opts(content, out)
	o.beforeSwap = func() {
		os.Mkdir(vol, 0o755)
		os.WriteFile(filepath.Join(vol, "data.db"), []byte("precious"), 0o644)
		mounted.Store(true)
	}
	st, _, err := Run(context.Background(), o)
	if err != nil {
		t.Fatalf("the output was replaced, yet: %v", err)
	}
	if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "api/vol") {
		t.Errorf("warnings %q, want one naming api/vol", st.Warnings)
	}
	if _, err := os.Stat(filepath.Join(out, "en", "index.html")); err != nil {
		t.Error(err)
	}
	left := temps(t, out)
	if len(left) != 1 {
		t.Fatalf("left %v, want the old output holding the volume", left)
	}
	if b, _ := os.ReadFile(filepath.Join(left[0], "api", "vol", "data.db")); string(b) != "precious" {
		t.Errorf("the volume's file: %q", b)
	}
}

// TestOutMountPointReplacedInPlace: an output that is a mount point cannot
// be renamed; its contents are replaced, the folder stays, and a second
// build keeps what did not change.
func TestOutMountPointReplacedInPlace(t *testing.T) {
	content := smallContent(t)
	out := filepath.Join(t.TempDir(), "public")
	os.Mkdir(out, 0o755)
	fakeMounts(t, out)
	inPlace(t, content, out)
}

// inPlace builds twice into out, a mount point, and checks that the folder
// itself stayed.
func inPlace(t *testing.T, content, out string) {
	t.Helper()
	info0, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	first, _, err := Run(context.Background(), opts(content, out))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(content, "pages", "about.en.md"), []byte("# About\n\nChanged.\n"), 0o644)
	st, _, err := Run(context.Background(), opts(content, out))
	if err != nil {
		t.Fatal(err)
	}
	info1, err := os.Stat(out)
	if err != nil || !os.SameFile(info0, info1) {
		t.Errorf("the mount point was replaced: %v", err)
	}
	if st.Kept == 0 || st.Written == 0 || st.Written+st.Kept != first.Files {
		t.Errorf("second build: %d written, %d kept; first wrote %d", st.Written, st.Kept, first.Files)
	}
	clean := filepath.Join(t.TempDir(), "clean")
	if _, _, err := Run(context.Background(), opts(content, clean)); err != nil {
		t.Fatal(err)
	}
	sameTree(t, tree(t, clean), tree(t, out), "an output replaced in place")
	if left := temps(t, out); len(left) > 0 {
		t.Errorf("left beside: %v", left)
	}
	if left, _ := filepath.Glob(filepath.Join(out, tempPrefix(out)+"*")); len(left) > 0 {
		t.Errorf("left inside: %v", left)
	}
}

// mountTmpfs mounts a tmpfs at dir (with options) for the test, where the
// test may; it skips the test where it may not, unless CI is set.
func mountTmpfs(t *testing.T, dir, options string) {
	t.Helper()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, options); err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("cannot mount a tmpfs (%v); the fake-device tests cover the same code", err)
		}
		t.Fatalf("cannot mount a tmpfs in CI: %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
}

// TestOutRealMounts: the same with real mounts, where the test can mount:
// a tmpfs inside the output is refused and its files stay, and an output
// that is a tmpfs is replaced in place.
func TestOutRealMounts(t *testing.T) {
	content := smallContent(t)
	out := filepath.Join(t.TempDir(), "public")
	if _, _, err := Run(context.Background(), opts(content, out)); err != nil {
		t.Fatal(err)
	}
	vol := filepath.Join(out, "vol")
	os.Mkdir(vol, 0o755)
	mountTmpfs(t, vol, "size=1m")
	os.WriteFile(filepath.Join(vol, "data.db"), []byte("precious"), 0o644)
	o := opts(content, out)
	o.ForceOut = true
	_, _, err := Run(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), "another filesystem is mounted inside it (vol/)") {
		t.Fatalf("err = %v, want a refusal naming vol/", err)
	}
	if b, _ := os.ReadFile(filepath.Join(vol, "data.db")); string(b) != "precious" {
		t.Errorf("the volume's file: %q", b)
	}

	point := filepath.Join(t.TempDir(), "www")
	os.Mkdir(point, 0o755)
	mountTmpfs(t, point, "size=64m")
	inPlace(t, smallContent(t), point)
}

// TestOutUnwritableParent: a read-only parent fails the build before the
// content is read (here there is none), naming -out, not the temporary
// folder.
func TestOutUnwritableParent(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "ro")
	os.Mkdir(parent, 0o755)
	if os.Getuid() == 0 {
		mountTmpfs(t, parent, "size=1m")
		if err := syscall.Mount("", parent, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
			t.Fatal(err)
		}
	} else {
		os.Chmod(parent, 0o555)
		t.Cleanup(func() { os.Chmod(parent, 0o755) })
	}
	out := filepath.Join(parent, "public")
	_, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: filepath.Join(t.TempDir(), "none"), Out: out})
	if err == nil || !strings.Contains(err.Error(), "cannot write the output folder "+out) || strings.Contains(err.Error(), tempMark) {
		t.Errorf("err = %v, want one naming %s", err, out)
	}
}

// TestOutFullDisk: so does a full disk, where the test can mount one.
func TestOutFullDisk(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "full")
	os.Mkdir(parent, 0o755)
	mountTmpfs(t, parent, "size=64k")
	f, _ := os.Create(filepath.Join(parent, "filler"))
	f.Write(make([]byte, 1<<20))
	f.Close()
	out := filepath.Join(parent, "public")
	_, _, err := Run(context.Background(), Options{Templates: incidentlib.Templates(), Static: incidentlib.Static(), Content: filepath.Join(t.TempDir(), "none"), Out: out})
	if err == nil || !strings.Contains(err.Error(), "cannot write the output folder "+out) || !strings.Contains(err.Error(), "no space") {
		t.Errorf("err = %v, want one naming %s and the full disk", err, out)
	}
}
