//go:build !unix

package serve

// DefaultMaxConns is the connection cap of NewHTTPServer.
func DefaultMaxConns() int { return 1024 }
