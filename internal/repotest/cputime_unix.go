//go:build unix

package repotest

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time, user and system, that the process has used:
// benchmarks report it per operation (cpu-s/op), which a shared machine
// disturbs less than the wall time.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
