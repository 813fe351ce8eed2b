package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"incidentlib/internal/api"
	"incidentlib/internal/cases"
	"incidentlib/internal/repotest"
)

// oneCaseContent writes a content folder with the shipped site.json and
// vocab.json and one case, IL-0495, in which from is replaced by to, and
// returns the folder.
func oneCaseContent(t *testing.T, from, to string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"site.json", "vocab.json"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "content", name))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name), b, 0o644)
	}
	os.Mkdir(filepath.Join(dir, "cases"), 0o755)
	b, err := os.ReadFile(filepath.Join("..", "..", "content", "cases", "IL-0495.json"))
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), from, to, 1)
	if edited == string(b) {
		t.Fatalf("IL-0495 no longer holds %s: update the test", from)
	}
	os.WriteFile(filepath.Join(dir, "cases", "IL-0495.json"), []byte(edited), 0o644)
	return dir
}

// TestCheckReport runs the check command on broken content and reads what a
// user reads: every problem with its position, an excerpt and a caret.
func TestCheckReport(t *testing.T) {
	dir := oneCaseContent(t, `"components":["ingress"`, `"components":["ingres"`)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "-content", dir}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr.String())
	}
	out := stderr.String()
	for _, want := range []string{`cases/IL-0495.json:1:`, `components[0]: unknown term "ingres" (did you mean "ingress"?)`, `"components":["ingres"`, "^", "1 error, 0 warnings"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"help", "build"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "-offline") {
		t.Errorf("help build: %d\n%s", code, stdout.String())
	}
	if code := run([]string{"nonsense"}, &stdout, &stderr); code != 2 {
		t.Errorf("unknown command exit %d", code)
	}
}

// TestCheckStrict checks that a warning passes a plain check and fails a
// strict one, which is what CI runs on the shipped content.
func TestCheckStrict(t *testing.T) {
	dir := oneCaseContent(t, `"ko":"쿠버네티스에서 도는 내부 로드 밸런서 일부가 헬스 체크 실패로 한꺼번에 내려가고 남은 인스턴스가 연결 폭증으로 무너졌다"`, `"ko":""`)
	for _, tt := range []struct {
		args []string
		code int
	}{
		{[]string{"check", "-content", dir}, 0},
		{[]string{"check", "-strict", "-content", dir}, 1},
	} {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, &stdout, &stderr)
		if code != tt.code {
			t.Errorf("%v: exit %d, want %d\n%s", tt.args, code, tt.code, stderr.String())
		}
		if !strings.Contains(stderr.String(), "title.ko: Korean translation missing") {
			t.Errorf("%v: the warning is not reported:\n%s", tt.args, stderr.String())
		}
		if tt.code == 1 && !strings.Contains(stderr.String(), "0 errors, 1 warning") {
			t.Errorf("%v: no summary of the failure:\n%s", tt.args, stderr.String())
		}
	}
}

// readmeBlock returns the first fenced block of the README after the line
// that contains marker.
func readmeBlock(t *testing.T, marker string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, marker)
	if i < 0 {
		t.Fatalf("README has no %q", marker)
	}
	s = s[i:]
	start := strings.Index(s, "\n```\n")
	if start < 0 {
		t.Fatalf("README has no code block after %q", marker)
	}
	s = s[start+5:]
	return s[:strings.Index(s, "```\n")]
}

// TestReadmeSynopsis keeps the README's synopsis the same as help's, which
// is written from the flags themselves.
func TestReadmeSynopsis(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"help"}, &stdout, &stderr); code != 0 {
		t.Fatalf("help: exit %d", code)
	}
	want := synopsis("")
	if got := readmeBlock(t, "## The command"); got != want {
		t.Errorf("README's synopsis differs from help's; make it\n%s\nnot\n%s", want, got)
	}
	if !strings.Contains(stdout.String(), synopsis("  ")) {
		t.Errorf("help does not show the synopsis:\n%s", stdout.String())
	}
	for _, flag := range []string{"-v]", "-workers N", "-templates DIR", "-static DIR", "new [-content DIR] ID"} {
		if !strings.Contains(want, flag) {
			t.Errorf("synopsis lacks %q:\n%s", flag, want)
		}
	}
}

// TestReadmeFields checks that the README documents every field of the case
// format.
func TestReadmeFields(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	var walk func(prefix string, s *cases.Schema)
	walk = func(prefix string, s *cases.Schema) {
		for _, p := range s.Props {
			if p.Name == "en" || p.Name == "ko" || p.Name == "text" {
				continue
			}
			name := prefix + p.Name
			// impact and timeline are documented by their members;
			// sources and review list theirs in quotes.
			if p.Name == "impact" || p.Name == "timeline" {
				walk(name+".", p.Schema)
				continue
			}
			if !strings.Contains(doc, "`"+name+"`") && !strings.Contains(doc, `"`+p.Name+`"`) {
				t.Errorf("README does not document the field %s", name)
			}
			if p.Schema.Items != nil {
				walk("", p.Schema.Items)
			} else {
				walk("", p.Schema)
			}
		}
	}
	walk("", cases.CaseSchema)
}

// TestReadmeError makes the README's example error and compares what check
// prints with the README.
func TestReadmeError(t *testing.T) {
	dir := repotest.CopyDir(t, "content")
	file := filepath.Join(dir, "cases", "IL-0504.json")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(b), `"admission-webhook",`, `"admision-webhook",`, 1)
	if bad == string(b) {
		t.Fatal(`IL-0504.json has no "admission-webhook", to misspell for the README's example`)
	}
	os.WriteFile(file, []byte(bad), 0o644)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "-content", dir}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1\n%s", code, stderr.String())
	}
	want := readmeBlock(t, "for example")
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("check does not print the README's example\n%s\nit prints\n%s", want, stderr.String())
	}
}

// TestNew writes a new case and checks it: every problem reported is a field
// left to fill in, at its line, and nothing else.
func TestNew(t *testing.T) {
	dir := repotest.ContentDir(t)
	now := time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)
	var stdout, stderr bytes.Buffer
	if code := cmdNew([]string{"-content", dir, "IL-0999"}, &stdout, &stderr, now); code != 0 {
		t.Fatalf("new: exit %d\n%s", code, stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "cases", "IL-0999.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, p := range cases.CaseSchema.Props {
		if _, ok := doc[p.Name]; !ok && (!p.Optional || p.Name == "$schema" || p.Name == "draft") {
			t.Errorf("the new case has no field %s", p.Name)
		}
	}
	if doc["$schema"] != "../schema/case.json" || doc["updated_at"] != "2026-12-01T09:30:00Z" {
		t.Errorf("$schema %v, updated_at %v", doc["$schema"], doc["updated_at"])
	}
	// The schema it names is there, offline, and is the published one.
	local, err := os.ReadFile(filepath.Join(dir, "cases", "..", "schema", "case.json"))
	if err != nil {
		t.Fatalf("the $schema of a new case leads nowhere: %v", err)
	}
	if want := cases.JSONSchema(cases.CaseSchema, "https://benchlet.com/incidentlib/"+api.SchemaPath, "incidentlib case"); !bytes.Equal(local, want) {
		t.Errorf("schema/case.json is not the published schema")
	}
	if title, _ := doc["title"].(map[string]any); title == nil || title["en"] != "" || title["ko"] != "" {
		t.Errorf("title is %v, want both languages, empty", doc["title"])
	}
	if code := cmdNew([]string{"-content", dir, "IL-0999"}, &stdout, &stderr, now); code == 0 {
		t.Error("new replaced an existing case")
	}
	if code := cmdNew([]string{"-content", dir, "il-500"}, &stdout, &stderr, now); code == 0 {
		t.Error("new accepted a bad id")
	}

	if doc["draft"] != true {
		t.Errorf("the new case is not a draft: draft is %v", doc["draft"])
	}
	// A draft does not fail check: it is listed, with what is left.
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"check", "-strict", "-content", dir}, &stdout, &stderr); code != 0 {
		t.Fatalf("check with a new draft: exit %d\n%s", code, stderr.String())
	}
	if want := "IL-0999  cases/IL-0999.json: 17 problems left"; !strings.Contains(stdout.String(), want) {
		t.Errorf("check does not list the draft as %q:\n%s", want, stdout.String())
	}
	// Named, its problems are reported.
	stderr.Reset()
	if code := run([]string{"check", "-content", dir, filepath.Join(dir, "cases", "IL-0999.json")}, &stdout, &stderr); code != 1 {
		t.Fatalf("check of the draft: exit %d\n%s", code, stderr.String())
	}
	left := map[string]bool{}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if !strings.HasPrefix(line, "cases/IL-0999.json:") {
			continue
		}
		parts := strings.SplitN(line, ": ", 3)
		if len(parts) == 3 && parts[1] == "warning" && strings.HasPrefix(parts[2], "sources[0].archived: null: ") {
			left["sources[0].archived"] = true // an archived copy not yet looked for
			continue
		}
		if len(parts) != 3 || (parts[2] != "must not be empty" && parts[2] != "text is empty in both languages") {
			t.Errorf("not a field left to fill in: %s", line)
			continue
		}
		left[parts[1]] = true
	}
	for _, f := range []string{"org", "org_slug", "date", "title", "summary", "symptoms_text", "trigger", "detection", "lessons",
		"remediation[0].text", "action_items[0].text", "impact.scope", "impact.users", "impact_level", "root_cause", "sources[0].url", "sources[0].archived", "review.written_by"} {
		if !left[f] {
			t.Errorf("check does not say that %s is left to fill in:\n%s", f, stderr.String())
		}
	}
}
