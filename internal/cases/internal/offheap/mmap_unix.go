//go:build unix

package offheap

import "syscall"

// mapMemory maps size bytes of private, zeroed memory. The kernel backs a
// page only once it is written, so an unused tail costs address space only.
func mapMemory(size int) ([]byte, error) {
	return syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
}
