package api

import "testing"

// generated is the size of a generated library of a test of this package:
// n cases, a fifth of them with -short (the quick loop), which still holds
// every kind of file and of reason.
func generated(n int) int {
	if testing.Short() {
		return n / 5
	}
	return n
}
