package main

import (
	"os"
	"syscall"
)

// peakMemory returns the peak resident memory of a finished process, in
// bytes, where the system reports it (Linux gives kilobytes), or 0.
func peakMemory(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss) * 1024
	}
	return 0
}
