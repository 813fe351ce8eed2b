package main

import (
	"bytes"
	"net"
	"strings"
	"testing"
)

// TestBusyPort: serve and mcp name a port that another program holds and
// say how to choose another, by flag and by the Makefile's variable.
func TestBusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "-addr", addr}, "make serve ADDR="},
		{[]string{"mcp", "-addr", addr}, "make mcp MCP_ADDR="},
		{[]string{"mcp", "-http", addr}, "make mcp MCP_ADDR="},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tt.args, &stdout, &stderr); code != 1 {
			t.Errorf("%v: exit %d, want 1", tt.args, code)
		}
		for _, w := range []string{addr + " is in use", "-addr 127.0.0.1:", tt.want} {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("%v: message lacks %q:\n%s", tt.args, w, stderr.String())
			}
		}
	}
}
