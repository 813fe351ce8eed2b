//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"incidentlib/internal/build"
	"incidentlib/internal/repotest"
)

// setSiteField replaces the value of a string member of content/site.json
// in the folder dir.
func setSiteField(t *testing.T, dir, key, value string) {
	t.Helper()
	file := filepath.Join(dir, "site.json")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	old := `"` + key + `": "`
	i := bytes.Index(b, []byte(old))
	if i < 0 {
		t.Fatalf("site.json has no %s: update the test", key)
	}
	j := i + len(old) + bytes.IndexByte(b[i+len(old):], '"')
	q, _ := json.Marshal(value)
	out := append(append(append([]byte{}, b[:i+len(old)-1]...), q...), b[j+1:]...)
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHostileURLSettings (#39 rows 1 and 14): a base URL with a quote or
// an angle bracket, with no host, or long enough to multiply the output,
// is refused by check and by build, in site.json and as -base-url, and the
// message names the setting.
func TestHostileURLSettings(t *testing.T) {
	bad := []string{
		`https://e.org/"><script>alert(1)</script>/`,
		`https://e.org/a'b/`,
		`https://e.org/<b>/`,
		`https:///x/`,
		`https://e.org/` + strings.Repeat("a", 300) + `/`,
		"https://e.org/\x1b[31m/",
	}
	for _, u := range bad {
		dir := repotest.CopyDir(t, "content")
		setSiteField(t, dir, "base_url", u)
		out := filepath.Join(t.TempDir(), "public")
		for _, args := range [][]string{{"check", "-content", dir}, {"build", "-content", dir, "-out", out}} {
			code, got := runLimited(t, args...)
			if code != 1 || !strings.Contains(got, "base_url") {
				t.Errorf("%s with base_url %.40q: exit %d, want 1 and a message naming base_url:\n%.500s", args[0], u, code, got)
			}
		}
		code, got := runLimited(t, "build", "-content", repotest.Dir(t, "content"), "-out", out, "-base-url", u)
		if code == 0 || !strings.Contains(got, "base URL") {
			t.Errorf("build -base-url %.40q: exit %d:\n%.500s", u, code, got)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("base_url %.40q: build wrote its output", u)
		}
	}
	for _, key := range []string{"url", "edit_url"} {
		dir := repotest.CopyDir(t, "content")
		setSiteField(t, dir, key, `https://e.org/"><script>alert(1)</script>/`)
		if code, got := runLimited(t, "check", "-content", dir); code != 1 || !strings.Contains(got, "repository."+key) {
			t.Errorf("repository.%s with a quote: exit %d:\n%.500s", key, code, got)
		}
	}
}

// TestHugeMarkerCount (#39 row 6): an output whose marker claims more
// files than memory can hold is refused with a message, not a panic.
func TestHugeMarkerCount(t *testing.T) {
	out := t.TempDir()
	for _, count := range []string{"9223372036854775807", "4611686018427387903", "1000000000000"} {
		marker := "x\nincidentlib-output 1 files " + count + "\nH4sIAAAAAAAC/wMAAAAAAAAAAAA=\n"
		if err := os.WriteFile(filepath.Join(out, build.Marker), []byte(marker), 0o644); err != nil {
			t.Fatal(err)
		}
		code, got := runLimited(t, "build", "-content", repotest.Dir(t, "content"), "-out", out)
		if code != 1 || !strings.Contains(got, build.Marker) {
			t.Errorf("count %s: exit %d:\n%.400s", count, code, got)
		}
	}
}
