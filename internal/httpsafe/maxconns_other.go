//go:build !unix

package httpsafe

// DefaultMaxConns is the connection cap of NewServer.
func DefaultMaxConns() int { return 1024 }
