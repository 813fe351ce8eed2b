//go:build unix

package build

import (
	"syscall"
)

// lockTemp takes the lock that marks dir as the folder of a running build:
// an flock on the folder itself, which the kernel releases when the process
// ends, however it ends. A process id alone would not do: once the build is
// gone, its id may be given to any other process.
func lockTemp(dir string) (unlock func(), err error) {
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return func() { syscall.Close(fd) }, nil
}

// tryLockTemp takes the lock of the temporary folder dir, named after the
// process pid, if no running build holds it.
func tryLockTemp(dir string, pid int) (unlock func(), ok bool) {
	unlock, err := lockTemp(dir)
	if err != nil {
		return nil, false
	}
	return unlock, true
}
