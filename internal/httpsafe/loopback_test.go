package httpsafe

import "testing"

// TestLoopbackHost holds the one loopback rule of the preview and the MCP
// server: this machine's names and addresses, with or without a port, and
// nothing that only begins or ends like them.
func TestLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST:1313": true, "localhost.": true, "127.0.0.1": true, "127.0.0.1:8080": true,
		"127.0.0.2:3000": true, "[::1]:5173": true, "::1": true, "[::1]": true,
		"evil.example": false, "127.0.0.1.evil.example": false, "localhost.evil.example:1313": false,
		"192.0.2.7": false, "0.0.0.0": false, "[::]:80": false, "": false,
	} {
		if got := LoopbackHost(host); got != want {
			t.Errorf("LoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}
