package build

import (
	"io/fs"
	"path"
	"strings"
	"time"
)

// oldCheck is the walk of the earlier output that runs while the content
// loads (see checkOld).
type oldCheck struct {
	done  chan struct{}
	files int
	took  time.Duration
	err   error
}

// wait returns how many files the earlier output holds (the marker left
// out), or why it may not be replaced.
func (c *oldCheck) wait() (int, error) {
	<-c.done
	return c.files, c.err
}

// checkOld judges the earlier output to its bottom, as outTarget judged its
// top: every entry must be one the marker lists (unless opt.ForceOut), and
// no folder may lie on another filesystem, such as a volume mounted inside
// it, whatever opt says: its files are never removed. It walks in the
// background; wait gives the result.
func checkOld(t target, opt Options) *oldCheck {
	c := &oldCheck{done: make(chan struct{})}
	if !t.exists {
		close(c.done)
		return c
	}
	go func() {
		t0 := time.Now()
		defer func() {
			c.took = time.Since(t0)
			close(c.done)
		}()
		var unexpected, mounted []string
		foreign := map[string]bool{} // unexpected folders: what is inside them is not listed again
		under := func(rel string) bool {
			for d := path.Dir(rel); d != "."; d = path.Dir(d) {
				if foreign[d] {
					return true
				}
			}
			return false
		}
		list := t.old
		if !opt.ForceOut {
			list.index() // outTarget refuses an output without a list
		}
		visit := func(rel string, typ fs.FileMode) bool {
			if !strings.Contains(rel, "/") && (rel == Marker || isTemp(t.out, rel, typ)) {
				return false
			}
			if !typ.IsDir() {
				c.files++
			}
			if opt.ForceOut || under(rel) {
				return true
			}
			switch {
			case typ.IsDir() && !list.dirs[rel]:
				foreign[rel] = true
				unexpected = append(unexpected, rel+"/")
			case !typ.IsDir() && !(typ.IsRegular() && list.set[rel]):
				unexpected = append(unexpected, rel)
			}
			return true
		}
		if err := walkTree(t.out, visit, func(rel string) { mounted = append(mounted, rel+"/") }); err != nil {
			c.err = &OutError{opt.Out, err.Error()}
			return
		}
		switch {
		case len(mounted) > 0:
			c.err = mountedError(opt.Out, mounted)
		case len(unexpected) > 0:
			c.err = foreignError(opt.Out, unexpected)
		}
	}()
	return c
}
