package history

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// gitEnv isolates git from the machine's configuration and fixes the
// names in commits.
func gitEnv(t *testing.T) {
	t.Helper()
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_AUTHOR_NAME", "Fixture")
	t.Setenv("GIT_AUTHOR_EMAIL", "fixture@example.org")
	t.Setenv("GIT_COMMITTER_NAME", "Fixture")
	t.Setenv("GIT_COMMITTER_EMAIL", "fixture@example.org")
}

// git runs git in dir (with the commit date when given) or fails the test.
func git(t *testing.T, dir, date string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = os.Environ()
	if date != "" {
		cmd.Env = append(cmd.Env, "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// Fixture is a git repository with a content folder inside it (content/)
// whose cases are added, edited, touched, withdrawn and published over
// dated commits; FixtureRepo returns the repository's folder.
func FixtureRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	gitEnv(t)
	repo := t.TempDir()
	git(t, repo, "", "init", "-q", "-b", "main")
	write := func(name, body string) {
		p := filepath.Join(repo, "content", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	commit := func(date, msg string) {
		git(t, repo, "", "add", "-A")
		git(t, repo, date, "commit", "-q", "-m", msg)
	}
	write("site.json", `{}`)
	write("cases/IL-0001.json", `{"id": "IL-0001", "summary": {"en": "One."}, "action_items": [], "updated_at": "2026-01-01T00:00:00Z"}`)
	write("cases/IL-0002.json", `{"id": "IL-0002", "summary": {"en": "Two."}, "updated_at": "2026-01-01T00:00:00Z"}`)
	commit("2026-01-01T10:00:00Z", "add two cases")
	write("cases/IL-0001.json", `{"id": "IL-0001", "summary": {"en": "One, told better."}, "action_items": [{"kind": "prevent"}], "updated_at": "2026-02-01T00:00:00Z"}`)
	commit("2026-02-01T10:00:00Z", "edit IL-0001 in two fields")
	// Members reordered and updated_at moved: no field changed.
	write("cases/IL-0002.json", `{"updated_at": "2026-02-15T00:00:00Z", "summary": {"en": "Two."}, "id": "IL-0002"}`)
	write("site.json", `{"title": "x"}`)
	commit("2026-02-15T10:00:00Z", "touch IL-0002, edit site.json")
	write("cases/IL-0001.json", `{"id": "IL-0001", "summary": {"en": "One, told better."}, "action_items": [{"kind": "prevent"}], "withdrawn": {"date": "2026-03-01"}, "updated_at": "2026-03-01T00:00:00Z"}`)
	commit("2026-03-01T10:00:00Z", "withdraw IL-0001")
	write("cases/IL-0003.json", `{"id": "IL-0003", "draft": true}`)
	commit("2026-03-05T10:00:00Z", "start IL-0003")
	write("cases/IL-0003.json", `{"id": "IL-0003", "summary": {"en": "Three."}}`)
	commit("2026-03-10T10:00:00Z", "publish IL-0003")
	return repo
}

func day(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// TestReadFixture reads the fixture's history: each case added (a draft
// when it is published), the edit with its two fields, the withdrawal,
// and nothing for a commit that changed no field of a case; newest first,
// with each commit's date and id.
func TestReadFixture(t *testing.T) {
	repo := FixtureRepo(t)
	l, err := Read(context.Background(), Options{Dir: filepath.Join(repo, "content"), Cases: "cases"})
	if err != nil {
		t.Fatal(err)
	}
	if head := git(t, repo, "", "rev-parse", "HEAD"); l.Head != head {
		t.Errorf("Head = %s, want %s", l.Head, head)
	}
	type row struct {
		ID, Kind, At, Fields string
	}
	var got []row
	for _, c := range l.Changes {
		got = append(got, row{c.ID, c.Kind, c.At.Format(time.RFC3339), strings.Join(c.Fields, ",")})
		if len(c.Commit) != 40 {
			t.Errorf("%s %s: commit %q", c.ID, c.Kind, c.Commit)
		}
	}
	want := []row{
		{"IL-0003", Added, "2026-03-10T10:00:00Z", ""},
		{"IL-0001", Withdrawn, "2026-03-01T10:00:00Z", "withdrawn"},
		{"IL-0001", Updated, "2026-02-01T10:00:00Z", "action_items,summary"},
		{"IL-0001", Added, "2026-01-01T10:00:00Z", ""},
		{"IL-0002", Added, "2026-01-01T10:00:00Z", ""},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("changes:\n got %v\nwant %v", got, want)
	}
	// The same commits in another clone give the same log.
	clone := filepath.Join(t.TempDir(), "clone")
	git(t, repo, "", "clone", "-q", repo, clone)
	again, err := Read(context.Background(), Options{Dir: filepath.Join(clone, "content"), Cases: "cases"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, l) {
		t.Errorf("a clone reads\n%+v\nthe repository\n%+v", again, l)
	}
	// Limit keeps the most recent.
	two, err := Read(context.Background(), Options{Dir: filepath.Join(repo, "content"), Cases: "cases", Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(two.Changes, l.Changes[:2]) {
		t.Errorf("Limit 2 keeps %+v, want %+v", two.Changes, l.Changes[:2])
	}
}

// TestReadFallsBack checks every case where git cannot answer: each is an
// error of one line that says why, never a hang.
func TestReadFallsBack(t *testing.T) {
	repo := FixtureRepo(t)
	shallow := filepath.Join(t.TempDir(), "shallow")
	git(t, repo, "", "clone", "-q", "--depth", "1", "file://"+repo, shallow)
	plain := t.TempDir()
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(plain)) // not a checkout, even if the temporary folder lies in one
	if err := os.Mkdir(filepath.Join(plain, "cases"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, dir, want string
	}{
		{"shallow clone", filepath.Join(shallow, "content"), "shallow"},
		{"not a checkout", plain, "not in a git checkout"},
	} {
		_, err := Read(context.Background(), Options{Dir: c.dir, Cases: "cases"})
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want one line with %q", c.name, err, c.want)
		}
	}

	t.Run("no git on PATH", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		_, err := Read(context.Background(), Options{Dir: filepath.Join(repo, "content"), Cases: "cases"})
		if err == nil || err.Error() != "git is not on PATH" {
			t.Errorf("error %v, want git is not on PATH", err)
		}
	})

	t.Run("git that never answers", func(t *testing.T) {
		bin := t.TempDir()
		if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\nexec sleep 600\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		_, err := Read(context.Background(), Options{Dir: filepath.Join(repo, "content"), Cases: "cases", Timeout: 200 * time.Millisecond})
		if err == nil || !strings.Contains(err.Error(), "did not answer within 200ms") {
			t.Errorf("error %v, want git did not answer within 200ms", err)
		}
	})
}
