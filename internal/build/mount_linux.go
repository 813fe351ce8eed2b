package build

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// mountPoints lists where filesystems are mounted, as this process sees
// them. A test replaces it to report a mount that is not there.
var mountPoints = func() ([]string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, nil // no /proc: the walk of the output still compares devices
	}
	defer f.Close()
	var points []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		// ID parent major:minor root MOUNT-POINT options …
		fields := strings.Fields(sc.Text())
		if len(fields) > 4 {
			points = append(points, unescapeMount(fields[4]))
		}
	}
	return points, sc.Err()
}

// unescapeMount undoes the octal escapes (\040 for a space) of mountinfo.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
