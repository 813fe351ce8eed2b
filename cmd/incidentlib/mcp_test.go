package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPCommand checks the mcp command's flags and its errors before it
// serves; serving itself is tested in internal/mcpserver and e2e.
func TestMCPCommand(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nothing")
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"mcp", "-content", missing}, 1, "incidentlib mcp: content folder: stat " + missing},
		{[]string{"mcp", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"mcp", "-http", "256.1.1.1:80", "-content", missing}, 1, "incidentlib mcp: listen tcp"},
		{[]string{"help", "mcp"}, 0, "-addr ADDR"},
		{[]string{"help", "mcp"}, 0, "-http ADDR"},
		{[]string{"mcp", "-public-url", "mcp.example.org"}, 2, `-public-url "mcp.example.org" is not an http or https address`},
		{[]string{"mcp", "-public-url", "ftp://mcp.example.org/"}, 2, "is not an http or https address"},
		{[]string{"help", "mcp"}, 0, "-public-url URL"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, &stdout, &stderr)
		if code != tt.code || !strings.Contains(stdout.String()+stderr.String(), tt.want) {
			t.Errorf("%v: exit %d, want %d with %q\n%s%s", tt.args, code, tt.code, tt.want, stdout.String(), stderr.String())
		}
	}
}
