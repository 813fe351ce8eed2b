//go:build unix

package build

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with this id exists. A process of
// another user counts as alive (EPERM): its folder is not ours to judge.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
