//go:build unix

package webtest

import (
	"os/exec"
	"syscall"
)

// setGroup starts the tool in a process group of its own and makes the
// deadline kill the whole group: linkinator and html-validate are node
// scripts, and a tool may start helpers of its own.
func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
