package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"incidentlib/internal/api"
	"incidentlib/internal/build"
	"incidentlib/internal/cases"
	"incidentlib/internal/repotest"
)

// TestCheckStrictParticle checks that a particle written apart is a warning
// that a plain check prints and a strict check fails on, with the corrected
// form under the line it points at.
func TestCheckStrictParticle(t *testing.T) {
	dir := oneCaseContent(t, `"ko":"HubSpot의 트래픽은`, `"ko":"HubSpot 의 트래픽은`)
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
		out := stderr.String()
		if !strings.Contains(out, `cases/IL-0495.json:1:`) || !strings.Contains(out, `summary.ko: particle written apart from the word before it: write "HubSpot의", not "HubSpot 의"`) {
			t.Errorf("%v: the warning is not reported:\n%s", tt.args, out)
		}
		if !strings.Contains(out, "HubSpot 의 트래픽은") || !strings.Contains(out, "^") {
			t.Errorf("%v: no excerpt with a caret:\n%s", tt.args, out)
		}
	}
}

// TestCheckStrictImpact checks that strict checking fails on an impact
// field written as a plain English string, as the seeds had them, and
// passes "unknown".
func TestCheckStrictImpact(t *testing.T) {
	given := `"users":{"en":"some HubSpot customers","ko":"일부 HubSpot 고객"}`
	for _, tt := range []struct {
		users string
		code  int
	}{
		{`"users":"some HubSpot customers"`, 1},
		{`"users":"unknown"`, 0},
	} {
		dir := oneCaseContent(t, given, tt.users)
		var stdout, stderr bytes.Buffer
		if code := run([]string{"check", "-strict", "-content", dir}, &stdout, &stderr); code != tt.code {
			t.Errorf("%s: exit %d, want %d\n%s", tt.users, code, tt.code, stderr.String())
		}
		if tt.code == 1 && !strings.Contains(stderr.String(), "impact.users: a plain string is English only") {
			t.Errorf("%s: no warning:\n%s", tt.users, stderr.String())
		}
	}
}

// TestNewFlagsAnywhere checks that new reads its flags before or after the
// id, as the README and the contributor type them, and still wants
// exactly one id.
func TestNewFlagsAnywhere(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 30, 0, 0, time.UTC)
	for _, tt := range []struct {
		args func(dir string) []string
		id   string
		code int
		msg  string
	}{
		{func(dir string) []string { return []string{"IL-0999", "-content", dir} }, "IL-0999", 0, ""},
		{func(dir string) []string { return []string{"-content", dir, "IL-0998"} }, "IL-0998", 0, ""},
		{func(dir string) []string { return []string{"-content=" + dir, "--", "IL-0997"} }, "IL-0997", 0, ""},
		{func(dir string) []string { return []string{"IL-0996", "-content", dir, "IL-0995"} }, "", 2, "want one case id, not 2 (IL-0996 IL-0995)"},
		{func(dir string) []string { return []string{"-content", dir} }, "", 2, "the next free one is IL-"},
		{func(dir string) []string { return []string{"-content", dir, "il-601"} }, "", 2, `"il-601" is not a case id: did you mean IL-0601?`},
		{func(dir string) []string { return []string{"-content", dir, "IL-0495"} }, "", 1, "there is a case IL-0495 already; the next free id is IL-"},
		{func(dir string) []string { return []string{"IL-0994", "-nonsense"} }, "", 2, "flag provided but not defined: -nonsense"},
	} {
		dir := repotest.ContentDir(t)
		var stdout, stderr bytes.Buffer
		args := tt.args(dir)
		if code := cmdNew(args, &stdout, &stderr, now); code != tt.code {
			t.Errorf("new %v: exit %d, want %d\n%s", args, code, tt.code, stderr.String())
		}
		if tt.id != "" {
			if _, err := os.Stat(filepath.Join(dir, "cases", tt.id+".json")); err != nil {
				t.Errorf("new %v: %v", args, err)
			}
		}
		if tt.msg != "" && !strings.Contains(stderr.String(), tt.msg) {
			t.Errorf("new %v: stderr %q, want %q", args, stderr.String(), tt.msg)
		}
	}
}

// TestContentSchemaCurrent keeps content/schema/case.json, which the
// cases' $schema names for editors offline, the same as the schema the API
// publishes: incidentlib new rewrites it when the format changes.
func TestContentSchemaCurrent(t *testing.T) {
	lib, _, err := build.Load(filepath.Join("..", "..", "content"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "..", "content", "schema", "case.json"))
	if err != nil {
		t.Fatal(err)
	}
	if want := cases.JSONSchema(cases.CaseSchema, lib.Settings.BaseURL+api.SchemaPath, "incidentlib case"); !bytes.Equal(got, want) {
		t.Error("content/schema/case.json is out of date: run incidentlib new with any free id (then delete that case) to rewrite it")
	}
}

// TestReadmeCommandsAfterBuild checks that the README's steps for adding a
// case name the command where make build puts it, since bin/ is not on
// anyone's PATH.
func TestReadmeCommandsAfterBuild(t *testing.T) {
	mk, err := os.ReadFile(filepath.Join("..", "..", "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mk), "BIN     := bin/incidentlib\n") {
		t.Fatal("the Makefile no longer builds bin/incidentlib: update the README and this test")
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	_, steps, _ := strings.Cut(readme, "## Adding a case")
	steps, _, _ = strings.Cut(steps, "\n## ")
	for _, want := range []string{"`make build`", "`bin/incidentlib new\n   IL-0600`", "`bin/incidentlib check`"} {
		if !strings.Contains(steps, want) {
			t.Errorf("README's Adding a case has no %s", want)
		}
	}
	for _, cmd := range []string{"`incidentlib new", "`incidentlib check"} {
		if strings.Contains(steps, cmd) {
			t.Errorf("README's Adding a case runs %s…`, which make build does not put on the PATH", cmd)
		}
	}
}
