package build

import "path/filepath"

// mounts says how out meets other filesystems.
type mounts struct {
	self   bool     // out is a mount point
	inside []string // mount points inside out, relative to it
}

// mountsAt finds the mount points at and inside out (resolved), before any
// work: a build never removes files across filesystems, and an output that
// is a mount point cannot be renamed. The walk of the output (checkOld)
// compares the folders' devices too, for mounts this list misses.
func mountsAt(out string) (mounts, error) {
	points, err := mountPoints()
	if err != nil {
		return mounts{}, err
	}
	var m mounts
	for _, p := range points {
		p = filepath.Clean(p)
		switch {
		case p == out:
			m.self = true
		case within(p, out):
			rel, _ := filepath.Rel(out, p)
			m.inside = append(m.inside, filepath.ToSlash(rel)+"/")
		}
	}
	return m, nil
}
