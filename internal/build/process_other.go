//go:build !unix

package build

import "os"

// processAlive reports whether a process with this id exists: where there
// is no signal 0 to ask with, FindProcess fails for a process that is gone.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
