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
