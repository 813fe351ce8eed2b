//go:build !unix

package httpsafe

// defaultMaxConns is the connection cap of NewServer.
func defaultMaxConns() int { return 1024 }
