//go:build !linux

package build

import "os"

// writeFile creates a file of the output and writes data to it.
func writeFile(name string, data []byte) error { return os.WriteFile(name, data, 0o644) }
