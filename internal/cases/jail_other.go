//go:build !unix

package cases

import "io/fs"

// sameTree: without a device and a link count, nothing more is refused.
func sameTree(info fs.FileInfo, dev uint64) error { return nil }

func deviceOf(info fs.FileInfo) uint64 { return 0 }
