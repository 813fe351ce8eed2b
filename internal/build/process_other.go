//go:build !unix

package build

import "os"

// lockTemp would mark dir as the folder of a running build; where there is
// no flock, the process id in its name does.
func lockTemp(dir string) (unlock func(), err error) { return func() {}, nil }

// tryLockTemp reports whether the temporary folder dir, named after the
// process pid, is free: FindProcess fails for a process that is gone.
func tryLockTemp(dir string, pid int) (unlock func(), ok bool) {
	if pid == os.Getpid() {
		return nil, false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return func() {}, true
	}
	p.Release()
	return nil, false
}
