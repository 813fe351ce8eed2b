package build

import (
	"os"
	"path/filepath"
	"testing"
)

// TestExchange: the two folders trade places in one step, contents and
// all; the writer's commit relies on it to leave no instant without an
// output folder.
func TestExchange(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, d := range []string{a, b} {
		os.Mkdir(d, 0o755)
		os.WriteFile(filepath.Join(d, "name"), []byte(filepath.Base(d)), 0o644)
	}
	swapped, err := exchange(a, b)
	if err != nil || !swapped {
		t.Fatalf("exchange: %v, %v (tmpfs and ext4 both support it)", swapped, err)
	}
	for d, want := range map[string]string{a: "b", b: "a"} {
		if got, _ := os.ReadFile(filepath.Join(d, "name")); string(got) != want {
			t.Errorf("%s holds %q, want %q", d, got, want)
		}
	}
	if _, err := exchange(a, filepath.Join(dir, "missing")); err == nil {
		t.Error("exchange with a missing folder succeeded")
	}
}
