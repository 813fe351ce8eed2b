// Package history reads what the commits of a git checkout say about the
// cases of a content folder: when each case was added, each later change
// with the top-level fields it changed, and when it was withdrawn. The
// content alone cannot say it (a case file holds only its latest state),
// so a build asks for it explicitly (build -history git), as Hugo's
// enableGitInfo does, and falls back to the cases' updated_at whenever git
// cannot answer: git missing, not a checkout, a shallow clone, or no
// answer within the time allowed.
//
// It runs two git processes in all, whatever the number of cases: one git
// log over the cases folder with its raw diffs (which name each version's
// blob), and one git cat-file --batch that hands over the blobs the
// changes need, one after the other. It reads the commits newest first
// and stops once it holds Limit changes, so the time and the memory it
// takes are bounded by Limit, not by the length of the history.
//
// The same commits give the same Log: it holds the commits' own dates and
// ids, never the clock's or the working tree's.
package history

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The kinds of change.
const (
	Added     = "added"     // the case's file appeared, or a draft was published
	Updated   = "updated"   // fields of the case changed
	Withdrawn = "withdrawn" // the case gained a withdrawn member
)

// Change is one change of one case, as a commit made it.
type Change struct {
	ID     string
	Kind   string
	At     time.Time // the commit's date (the committer's), in UTC
	Commit string    // the commit's full id
	// Fields are the top-level fields of the case whose value changed,
	// sorted; none for Added. updated_at and $schema are left out: they
	// change with every edit and say nothing of it.
	Fields []string
}

// Log is what the history says about the cases.
type Log struct {
	Head    string   // the commit the history was read from
	Changes []Change // newest first (ties in the order git lists them), at most Options.Limit
}

// Options say where to read and how much.
type Options struct {
	Dir   string // the content folder
	Cases string // its folder of case files, each <id>.json, relative to Dir
	// Limit is how many changes to keep, the most recent; 0 means
	// DefaultLimit.
	Limit int
	// Timeout bounds the whole read; 0 means DefaultTimeout.
	Timeout time.Duration
}

// DefaultLimit is how many changes a Log keeps unless told otherwise.
const DefaultLimit = 200

// DefaultTimeout is how long git may take unless told otherwise.
const DefaultTimeout = 30 * time.Second

// ignored are the fields whose change is no change of the case.
var ignored = map[string]bool{"updated_at": true, "$schema": true}

// Read reads the history of the cases in o.Dir. The error says in one
// line why git could not answer; the caller then falls back to what the
// content says (updated_at) and says so.
func Read(ctx context.Context, o Options) (*Log, error) {
	if o.Limit <= 0 {
		o.Limit = DefaultLimit
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	gitPath, err := exec.LookPath("git")
	if err != nil {
		return nil, errors.New("git is not on PATH")
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	r := &reader{ctx: ctx, git: gitPath, dir: o.Dir}
	log, err := r.read(o)
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		return nil, fmt.Errorf("git did not answer within %s", o.Timeout)
	}
	return log, err
}

// reader runs git in one folder, under one context.
type reader struct {
	ctx context.Context
	git string
	dir string
}

// command is git with the given arguments in the content folder, in the
// C locale, never asking for a password, never taking a lock it can do
// without, and killed (its pipes closed soon after) when the context ends.
func (r *reader) command(args ...string) *exec.Cmd {
	// The repository's own configuration runs no program here: log and
	// cat-file read objects only, with no pager, external diff or
	// file-system monitor.
	base := []string{"-c", "core.quotepath=false", "-c", "log.showSignature=false", "-c", "core.fsmonitor=false", "--no-replace-objects"}
	cmd := exec.CommandContext(r.ctx, r.git, append(base, args...)...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "GIT_PAGER=cat")
	cmd.WaitDelay = 2 * time.Second
	return cmd
}

// read checks the checkout, then walks the log.
func (r *reader) read(o Options) (*Log, error) {
	var stderr bytes.Buffer
	cmd := r.command("rev-parse", "--is-inside-work-tree", "--is-shallow-repository", "HEAD")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if r.ctx.Err() != nil {
			return nil, r.ctx.Err()
		}
		msg := strings.TrimSpace(stderr.String())
		switch {
		case strings.Contains(msg, "not a git repository"):
			return nil, fmt.Errorf("%s is not in a git checkout", o.Dir)
		case strings.Contains(msg, "unknown revision") || strings.Contains(msg, "ambiguous argument 'HEAD'"):
			return nil, fmt.Errorf("the git checkout of %s has no commit yet", o.Dir)
		}
		first, _, _ := strings.Cut(msg, "\n")
		return nil, fmt.Errorf("git rev-parse failed: %s", first)
	}
	lines := strings.Fields(string(out))
	if len(lines) != 3 {
		return nil, fmt.Errorf("git rev-parse answered %q", out)
	}
	if lines[0] != "true" {
		return nil, fmt.Errorf("%s is not in a git work tree", o.Dir)
	}
	if lines[1] == "true" {
		return nil, errors.New("the git checkout is a shallow clone, which lacks the older commits")
	}
	l := &Log{Head: lines[2]}
	if err := r.walk(l, o); err != nil {
		return nil, err
	}
	if len(l.Changes) == 0 {
		return nil, fmt.Errorf("no commit of %s touches %s", l.Head[:min(12, len(l.Head))], o.Cases)
	}
	return l, nil
}

// walk reads git log newest first and classifies each change of a case
// file until it holds o.Limit changes.
func (r *reader) walk(l *Log, o Options) error {
	logCmd := r.command("log", "-z", "--raw", "--no-renames", "--no-abbrev", "--relative", "--date-order",
		"--no-color", "--no-ext-diff", "--format=commit %H %ct", l.Head, "--", o.Cases)
	var logErr bytes.Buffer
	logCmd.Stderr = &logErr
	logOut, err := logCmd.StdoutPipe()
	if err != nil {
		return err
	}
	blobs, err := r.startBlobs()
	if err != nil {
		return err
	}
	defer blobs.close()
	if err := logCmd.Start(); err != nil {
		return err
	}
	stopped := false
	defer func() {
		if stopped && logCmd.Process != nil {
			logCmd.Process.Kill()
		}
		logCmd.Wait()
	}()
	prefix := strings.TrimSuffix(o.Cases, "/") + "/"
	in := newTokens(logOut)
	var commit string
	var at time.Time
	for len(l.Changes) < o.Limit {
		tok, err := in.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if h, ok := strings.CutPrefix(tok, "commit "); ok {
			if commit, at, err = commitLine(h); err != nil {
				return fmt.Errorf("git log: commit line %q", tok)
			}
			continue
		}
		if !strings.HasPrefix(tok, ":") {
			return fmt.Errorf("git log: unexpected %q", tok)
		}
		path, err := in.next()
		if err != nil {
			return fmt.Errorf("git log: a change without its path: %v", err)
		}
		name, ok := strings.CutPrefix(path, prefix)
		if !ok || strings.Contains(name, "/") || !strings.HasSuffix(name, ".json") || commit == "" {
			continue
		}
		meta := strings.Fields(tok[1:]) // modes, blobs, status
		if len(meta) != 5 {
			return fmt.Errorf("git log: raw line %q", tok)
		}
		ch, keep, err := classify(blobs, meta[2], meta[3], meta[4])
		if err != nil {
			return err
		}
		if keep {
			ch.ID, ch.At, ch.Commit = strings.TrimSuffix(name, ".json"), at, commit
			l.Changes = append(l.Changes, ch)
		}
	}
	if len(l.Changes) >= o.Limit {
		stopped = true
	} else if err := logCmd.Wait(); err != nil {
		if r.ctx.Err() != nil {
			return r.ctx.Err()
		}
		first, _, _ := strings.Cut(strings.TrimSpace(logErr.String()), "\n")
		return fmt.Errorf("git log failed: %s", first)
	}
	// git lists by date already (--date-order), parents after their
	// children; a commit dated before its parent is put in its place.
	slices.SortStableFunc(l.Changes, func(a, b Change) int { return b.At.Compare(a.At) })
	return nil
}

// commitLine reads the rest of a "commit %H %ct" line: the commit's id
// and its time.
func commitLine(h string) (string, time.Time, error) {
	id, secs, _ := strings.Cut(h, " ")
	n, err := strconv.ParseInt(secs, 10, 64)
	if err != nil {
		return "", time.Time{}, err
	}
	return id, time.Unix(n, 0).UTC(), nil
}

// zeroBlob is the id git gives the side of a change where the file is not.
func zeroBlob(id string) bool { return strings.Trim(id, "0") == "" }

// classify says what a change of a case file was, from the versions
// before and after (blob ids) and git's status letter: keep is false for
// a change the library does not show (a file removed, a draft, a change
// of no field but updated_at).
func classify(b *blobReader, before, after, status string) (Change, bool, error) {
	if status == "D" || zeroBlob(after) {
		return Change{}, false, nil // a removed case is no longer in the library to show
	}
	newer, err := b.fields(after)
	if err != nil {
		return Change{}, false, err
	}
	if isTrue(newer["draft"]) {
		return Change{}, false, nil
	}
	if status == "A" || zeroBlob(before) {
		if newer["withdrawn"] != nil {
			return Change{Kind: Withdrawn}, true, nil
		}
		return Change{Kind: Added}, true, nil
	}
	older, err := b.fields(before)
	if err != nil {
		return Change{}, false, err
	}
	if isTrue(older["draft"]) {
		return Change{Kind: Added}, true, nil // published
	}
	var fields []string
	for k, v := range newer {
		if !ignored[k] && !sameJSON(older[k], v) {
			fields = append(fields, k)
		}
	}
	for k := range older {
		if _, ok := newer[k]; !ok && !ignored[k] {
			fields = append(fields, k)
		}
	}
	if len(fields) == 0 {
		return Change{}, false, nil
	}
	slices.Sort(fields)
	kind := Updated
	if newer["withdrawn"] != nil && older["withdrawn"] == nil {
		kind = Withdrawn
	}
	return Change{Kind: kind, Fields: fields}, true, nil
}

// isTrue reports whether a raw JSON value is true.
func isTrue(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "true" }

// sameJSON reports whether two raw JSON values are equal as values (the
// order of an object's members, spaces and escapes do not count).
func sameJSON(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
