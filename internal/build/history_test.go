package build

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// historyRepo makes the small library a git repository whose commits,
// with fixed dates and names, add its cases (IL-0630 a month after the
// others), edit IL-0495 in two fields (summary and trigger) and withdraw
// IL-0338; it returns the content folder (the repository's root) and the
// last commit.
func historyRepo(t *testing.T) (content, head string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for k, v := range map[string]string{
		"GIT_CONFIG_GLOBAL": os.DevNull, "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME": "Fixture", "GIT_AUTHOR_EMAIL": "fixture@example.org",
		"GIT_COMMITTER_NAME": "Fixture", "GIT_COMMITTER_EMAIL": "fixture@example.org",
	} {
		t.Setenv(k, v)
	}
	content = smallContent(t)
	git := func(date string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = content
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	commit := func(date, msg string) {
		git(date, "add", "-A")
		git(date, "commit", "-q", "-m", msg)
	}
	later := filepath.Join(content, "cases", "IL-0630.json")
	saved, err := os.ReadFile(later)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(later)
	git("", "init", "-q", "-b", "main")
	commit("2026-01-01T09:00:00Z", "the library")
	if err := os.WriteFile(later, saved, 0o644); err != nil {
		t.Fatal(err)
	}
	commit("2026-02-01T09:00:00Z", "add IL-0630")
	edit := func(id string, change func(c map[string]any)) {
		p := filepath.Join(content, "cases", id+".json")
		var c map[string]any
		data, err := os.ReadFile(p)
		if err == nil {
			err = json.Unmarshal(data, &c)
		}
		if err != nil {
			t.Fatal(err)
		}
		change(c)
		if data, err = json.MarshalIndent(c, "", "  "); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit("IL-0495", func(c map[string]any) {
		c["summary"].(map[string]any)["en"] = c["summary"].(map[string]any)["en"].(string) + " Edited."
		c["trigger"].(map[string]any)["ko"] = c["trigger"].(map[string]any)["ko"].(string) + " 고쳤다."
		c["updated_at"] = "2026-03-01T00:00:00Z"
	})
	commit("2026-03-01T09:00:00Z", "edit IL-0495")
	edit("IL-0338", func(c map[string]any) {
		c["withdrawn"] = map[string]any{"date": "2026-04-01", "reason": map[string]any{"en": "A test.", "ko": "시험이다."}, "replaced_by": []any{}}
	})
	commit("2026-04-01T09:00:00Z", "withdraw IL-0338")
	return content, git("", "rev-parse", "HEAD")
}

// changesJSON is the part of changes.json the tests read.
type changesJSON struct {
	Source  string `json:"source"`
	Commit  string `json:"commit"`
	Count   int    `json:"count"`
	Changes []struct {
		ID     string   `json:"id"`
		Change string   `json:"change"`
		At     string   `json:"at"`
		Commit string   `json:"commit"`
		Fields []string `json:"fields"`
	} `json:"changes"`
}

// atomFeed is the part of an Atom feed the tests read; decoding into it
// fails unless the root is Atom's feed.
type atomFeed struct {
	XMLName xml.Name   `xml:"http://www.w3.org/2005/Atom feed"`
	ID      string     `xml:"id"`
	Title   string     `xml:"title"`
	Updated string     `xml:"updated"`
	Author  []string   `xml:"author>name"`
	Links   []atomLink `xml:"link"`
	Entries []struct {
		ID      string     `xml:"id"`
		Title   string     `xml:"title"`
		Updated string     `xml:"updated"`
		Summary string     `xml:"summary"`
		Links   []atomLink `xml:"link"`
	} `xml:"entry"`
}

type atomLink struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr"`
}

// readAtom reads an Atom feed strictly: nothing after it, and the
// elements Atom requires of a feed (id, title, updated, author, a self
// link) and of each entry (id, title, updated, a summary here, an
// alternate link).
func readAtom(t *testing.T, path string) atomFeed {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f atomFeed
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Errorf("%s: more after the feed: %v", path, err)
	}
	has := func(links []atomLink, rel string) bool {
		for _, l := range links {
			if l.Rel == rel && l.Href != "" {
				return true
			}
		}
		return false
	}
	if _, err := time.Parse(time.RFC3339, f.Updated); err != nil || f.ID == "" || f.Title == "" || len(f.Author) == 0 || !has(f.Links, "self") {
		t.Errorf("%s: the feed lacks an element Atom requires", path)
	}
	for _, e := range f.Entries {
		if _, err := time.Parse(time.RFC3339, e.Updated); err != nil || e.ID == "" || e.Title == "" || e.Summary == "" || !has(e.Links, "alternate") {
			t.Errorf("%s: entry %q lacks an element", path, e.ID)
		}
	}
	return f
}

func readChanges(t *testing.T, out string) changesJSON {
	t.Helper()
	var c changesJSON
	data, err := os.ReadFile(filepath.Join(out, "api", "v1", "changes.json"))
	if err == nil {
		err = json.Unmarshal(data, &c)
	}
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestHistoryGit builds the fixture repository with -history git:
// changes.json and both changes feeds list the withdrawal, the edit with
// its two fields, and each case added at its commit's date, newest first;
// a second build over the first output is the same as a clean one.
func TestHistoryGit(t *testing.T) {
	content, head := historyRepo(t)
	o := opts(content, filepath.Join(t.TempDir(), "public"))
	o.History = HistoryGit
	st, _, err := Run(t.Context(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Warnings) > 0 {
		t.Errorf("warnings: %q", st.Warnings)
	}
	c := readChanges(t, o.Out)
	if c.Source != "git" || c.Commit != head || c.Count != len(c.Changes) {
		t.Errorf("source %q, commit %q (want git, %s), count %d of %d", c.Source, c.Commit, head, c.Count, len(c.Changes))
	}
	var got []string
	for _, ch := range c.Changes {
		got = append(got, ch.ID+" "+ch.Change+" "+ch.At+" "+strings.Join(ch.Fields, ","))
		if len(ch.Commit) != 40 {
			t.Errorf("%s: commit %q", ch.ID, ch.Commit)
		}
	}
	want := []string{
		"IL-0338 withdrawn 2026-04-01T09:00:00Z withdrawn",
		"IL-0495 updated 2026-03-01T09:00:00Z summary,trigger",
		"IL-0630 added 2026-02-01T09:00:00Z ",
	}
	for _, id := range smallCases {
		if id != "IL-0630" {
			want = append(want, id+" added 2026-01-01T09:00:00Z ")
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("changes.json:\n got %q\nwant %q", got, want)
	}
	titles := map[string][]string{
		"en": {"Withdrawn · IL-0338", "Updated (summary, trigger) · IL-0495", "Added · IL-0630"},
		"ko": {"철회 · IL-0338", "갱신 (요약, 계기) · IL-0495", "추가 · IL-0630"},
	}
	for lang, heads := range titles {
		f := readAtom(t, filepath.Join(o.Out, lang, "changes.xml"))
		if len(f.Entries) != len(want) {
			t.Errorf("%s/changes.xml: %d entries, want %d", lang, len(f.Entries), len(want))
			continue
		}
		ids := map[string]bool{}
		for i, e := range f.Entries {
			if ids[e.ID] {
				t.Errorf("%s/changes.xml: id %s twice", lang, e.ID)
			}
			ids[e.ID] = true
			if i < len(heads) && !strings.HasPrefix(e.Title, heads[i]) {
				t.Errorf("%s/changes.xml: entry %d is %q, want %q…", lang, i, e.Title, heads[i])
			}
			if e.Updated != c.Changes[i].At {
				t.Errorf("%s/changes.xml: entry %d updated %s, want %s", lang, i, e.Updated, c.Changes[i].At)
			}
		}
	}
	// Incremental equals clean.
	first := tree(t, o.Out)
	if _, _, err := Run(t.Context(), o); err != nil {
		t.Fatal(err)
	}
	clean := o
	clean.Out = filepath.Join(t.TempDir(), "clean")
	if _, _, err := Run(t.Context(), clean); err != nil {
		t.Fatal(err)
	}
	sameTree(t, first, tree(t, o.Out), "a second build over the first")
	sameTree(t, first, tree(t, clean.Out), "a clean build")
}

// TestHistoryFallsBack builds with -history git where git cannot answer
// (a shallow clone; a PATH without git): the build succeeds, says why in
// one warning, and changes.json says its changes come from updated_at.
func TestHistoryFallsBack(t *testing.T) {
	content, _ := historyRepo(t)
	shallow := filepath.Join(t.TempDir(), "shallow")
	if out, err := exec.Command("git", "clone", "-q", "--depth", "1", "file://"+content, shallow).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	for _, c := range []struct {
		name, content, path, want string
	}{
		{"shallow clone", shallow, os.Getenv("PATH"), "shallow clone"},
		{"no git", content, t.TempDir(), "git is not on PATH"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("PATH", c.path)
			o := opts(c.content, filepath.Join(t.TempDir(), "public"))
			o.History = HistoryGit
			st, _, err := Run(t.Context(), o)
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], c.want) || !strings.Contains(st.Warnings[0], "updated_at") || strings.Contains(st.Warnings[0], "\n") {
				t.Errorf("warnings %q, want one line with %q and updated_at", st.Warnings, c.want)
			}
			ch := readChanges(t, o.Out)
			if ch.Source != "updated_at" || ch.Commit != "" || len(ch.Changes) == 0 {
				t.Errorf("source %q, commit %q, %d changes; want updated_at, none, some", ch.Source, ch.Commit, len(ch.Changes))
			}
			for _, x := range ch.Changes {
				if x.Change == "added" || x.Fields != nil {
					t.Errorf("%s: %s with fields %v from updated_at", x.ID, x.Change, x.Fields)
				}
			}
			for _, lang := range []string{"en", "ko"} {
				if f := readAtom(t, filepath.Join(o.Out, lang, "changes.xml")); len(f.Entries) != len(ch.Changes) {
					t.Errorf("%s/changes.xml: %d entries, want %d", lang, len(f.Entries), len(ch.Changes))
				}
			}
		})
	}
}
