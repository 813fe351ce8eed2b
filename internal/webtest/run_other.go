//go:build !unix

package webtest

import "os/exec"

// setGroup does nothing where there are no process groups: the deadline
// kills the tool's own process only.
func setGroup(cmd *exec.Cmd) {}
