//go:build unix

package httpsafe

import "syscall"

// defaultMaxConns is the connection cap of NewServer: a quarter of the
// process's file descriptors, so that the rest stay free for reading the
// content, and at most 1,024.
func defaultMaxConns() int {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 1024
	}
	return int(max(8, min(1024, lim.Cur/4)))
}
