package webtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"incidentlib/internal/urls"
)

type linkinatorReport struct {
	Passed bool `json:"passed"`
	Links  []struct {
		URL            string `json:"url"`
		Status         int    `json:"status"`
		State          string `json:"state"`
		Parent         string `json:"parent"`
		FailureDetails []any  `json:"failureDetails"`
	} `json:"links"`
}

// Links serves dir on localhost (see Handler) and runs linkinator
// (node_modules/.bin/linkinator) over it, starting from every HTML page so
// that pages nothing links to are checked too, and following links
// recursively. Links to any other host are skipped (the tests run without
// internet). It returns each broken link as "URL (HTTP status) on PARENT",
// with the server's address replaced by "/" paths so messages are stable.
func Links(t testing.TB, dir string) []string {
	t.Helper()
	return LinksUnder(t, dir, "")
}

// LinksUnder is Links with the site served under a path prefix such as
// "/incidentlib", as a site deployed to a sub-path is.
func LinksUnder(t testing.TB, dir, prefix string) []string {
	t.Helper()
	bin := tool(t, "node_modules/.bin/linkinator", "linkinator")
	dir = absDir(t, dir)
	base := ServeUnder(t, dir, prefix)
	origin := strings.TrimSuffix(base, prefix)

	args := []string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".html") {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if path.Base(rel) == urls.NotFound {
			return nil // the root's and each language's: reached by bad links, not pages of their own
		}
		if rel == "index.html" || strings.HasSuffix(rel, "/index.html") {
			rel = strings.TrimSuffix(rel, "index.html")
		}
		args = append(args, base+"/"+rel)
		return nil
	})
	if err != nil {
		t.Fatalf("links: list pages of %s: %v", dir, err)
	}
	if len(args) == 0 {
		t.Fatalf("links: no .html file under %s", dir)
	}
	// linkinator tests each URL against the skip pattern: skip everything
	// that is not on this server. A link that leaves the path prefix stays
	// on the server and is reported broken.
	skip := `^(?!` + regexp.QuoteMeta(origin) + `(/|$))`
	// A request that fails without an answer (status 0: a reset or a
	// timeout, seen when the machine is loaded by other tests) is tried
	// again with a pause; a page the server answers 404 for is not, so a
	// broken link is still reported at once. Fewer connections at a time
	// than linkinator's 100 keep a loaded 2-core machine from timing out.
	args = append(args, "--recurse", "--format", "json", "--skip", skip, "--timeout", "20000", "--verbosity", "error",
		"--concurrency", "25", "--retry-errors", "--retry-errors-count", "3")
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	// linkinator exits 1 when a link is broken; only an unreadable report
	// means the tool itself failed.
	var rep linkinatorReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("linkinator: %v (exit: %v); stdout:\n%s\nstderr:\n%s", err, runErr, clip(stdout.Bytes()), clip(stderr.Bytes()))
	}
	if runErr != nil && rep.Passed {
		t.Fatalf("linkinator failed but reported success: %v\nstderr:\n%s", runErr, clip(stderr.Bytes()))
	}
	local := func(u string) string {
		if strings.HasPrefix(u, base) {
			return strings.TrimPrefix(u, base)
		}
		return u
	}
	var out []string
	seen := map[string]bool{}
	for _, l := range rep.Links {
		if l.State != "BROKEN" {
			continue
		}
		s := fmt.Sprintf("%s (HTTP %d) on %s", local(l.URL), l.Status, local(l.Parent))
		if l.Parent == "" {
			s = fmt.Sprintf("%s (HTTP %d), an entry page", local(l.URL), l.Status)
		}
		if l.Status == 0 && len(l.FailureDetails) > 0 {
			// No answer at all: say what linkinator saw instead.
			why, _ := json.Marshal(l.FailureDetails[0])
			if len(why) > 200 {
				why = append(why[:200], "…"...)
			}
			s += ": " + string(why)
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	if !rep.Passed && len(out) == 0 {
		t.Fatalf("linkinator reports failure but no BROKEN link; stdout:\n%s\nstderr:\n%s", clip(stdout.Bytes()), clip(stderr.Bytes()))
	}
	sort.Strings(out)
	return out
}
