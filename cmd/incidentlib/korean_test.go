package main

import (
	"bytes"
	"strings"
	"testing"
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
