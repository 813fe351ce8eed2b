// Package offheap keeps large, long-lived bytes outside the garbage-collected
// heap.
//
// A build of 100,000 cases holds about 900 MB of case text from the first
// stage to the last. On the Go heap that text counts towards the size the
// collector aims for, so the heap limit is reached sooner, the collector runs
// more often, and every run walks a heap twice as large: at that size a
// quarter of the build's CPU went to collecting. Text in an Arena is memory
// the collector never sees.
//
// The price is that an Arena is never freed: its memory stays mapped until
// the process ends. Use one only in a process that builds once and exits,
// never in a server that reloads content.
//
// Package cases alone creates and uses an arena (cases.LoadOffHeap), behind
// its library: no other package holds or passes one, which the place of this
// package, inside cases, makes the compiler enforce.
package offheap

import (
	"sync"
	"unsafe"
)

// chunk is how much an Arena maps at a time. Mapping is a system call and
// leaves the end of the previous chunk unused, so chunks are large next to a
// case (about 10 KB) and small next to a library (about 1 GB).
const chunk = 64 << 20

// An Arena hands out byte slices from memory mapped outside the Go heap. The
// zero value is ready to use; a nil *Arena allocates on the heap, so code can
// take an optional arena without a branch of its own. It is safe for
// concurrent use.
type Arena struct {
	mu     sync.Mutex
	free   []byte // what is left of the newest chunk
	mapped int64
}

// Bytes returns a new slice of n zero bytes that stays valid for the life of
// the process. The slice's capacity is n, so appending to it copies.
func (a *Arena) Bytes(n int) []byte {
	if a == nil || n == 0 {
		return make([]byte, n)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if n > len(a.free) {
		size := max(chunk, n)
		b, err := mapMemory(size)
		if err != nil {
			return make([]byte, n) // the heap still works; only the saving is lost
		}
		a.free = b
		a.mapped += int64(size)
	}
	b := a.free[:n:n]
	a.free = a.free[n:]
	return b
}

// String returns a copy of b as a string held in the arena, or on the heap
// when a is nil.
func (a *Arena) String(b []byte) string {
	if a == nil || len(b) == 0 {
		return string(b)
	}
	c := a.Bytes(len(b))
	copy(c, b)
	return unsafe.String(&c[0], len(c))
}

// Mapped returns how many bytes the arena has mapped so far.
func (a *Arena) Mapped() int64 {
	if a == nil {
		return 0
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mapped
}
