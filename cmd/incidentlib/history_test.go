package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildHistoryFlag: -history takes git or off only; with git on a
// content folder outside any checkout, the build succeeds and says in one
// warning line that its changes come from updated_at.
func TestBuildHistoryFlag(t *testing.T) {
	content := oneCaseContent(t, "{", "{ ")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"build", "-history", "svn", "-content", content, "-out", filepath.Join(t.TempDir(), "out")}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), `-history "svn": want git or off`) {
		t.Errorf("-history svn: status %d, stderr %q", code, stderr.String())
	}
	// A folder outside any checkout, also when the test runs inside one.
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(content))
	stdout.Reset()
	stderr.Reset()
	out := filepath.Join(t.TempDir(), "out")
	if code := run([]string{"build", "-history", "git", "-content", content, "-out", out}, &stdout, &stderr); code != 0 {
		t.Fatalf("status %d: %s", code, stderr.String())
	}
	var lines []string
	for _, l := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(l, "-history git") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "incidentlib build: warning: -history git: ") || !strings.Contains(lines[0], "not in a git checkout") || !strings.Contains(lines[0], "updated_at") {
		t.Errorf("stderr says of the history %q, want one warning line", lines)
	}
	data, err := os.ReadFile(filepath.Join(out, "api", "v1", "changes.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"source":"updated_at"`) {
		t.Errorf("changes.json does not say it comes from updated_at: %.200s", data)
	}
}
