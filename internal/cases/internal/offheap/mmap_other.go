//go:build !unix

package offheap

// mapMemory falls back to the Go heap where there is no mmap: the build
// works the same, without the saving.
func mapMemory(size int) ([]byte, error) {
	return make([]byte, size), nil
}
