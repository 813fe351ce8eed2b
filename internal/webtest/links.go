package webtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"incidentlib/internal/urls"
)

// linkinatorBin is linkinator under the repository root; a test of this
// package points it at a fake.
var linkinatorBin = "node_modules/.bin/linkinator"

// linksTimeout is the deadline of one linkinator run.
const linksTimeout = 10 * time.Minute

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
	bin := tool(t, linkinatorBin, "linkinator")
	dir = absDir(t, dir)
	base := ServeUnder(t, dir, prefix)
	origin := strings.TrimSuffix(base, prefix)

	var args []string
	for _, p := range htmlPages(t, dir, "links") {
		rel, _ := filepath.Rel(dir, p)
		args = append(args, base+"/"+urls.Page(filepath.ToSlash(rel)))
	}
	// linkinator tests each URL against the skip pattern: skip everything
	// that is not on this server. A link that leaves the path prefix stays
	// on the server and is reported broken.
	skip := `^(?!` + regexp.QuoteMeta(origin) + `(/|$))`
	// No --timeout and no --retry-errors, on purpose: they are what made
	// linkinator exit 13 (a never-settled top-level await) with no report.
	// linkinator starts the crawl of every page given on the command line
	// at once (its --concurrency bounds a queue that waits on crawls
	// already started), so on a loaded machine a page's response can take
	// longer than a per-request timeout. The abort then hits the body while
	// linkinator parses it, in a pipe that does not pass the error on, and
	// a retry waits in a queue that only an unref'd timer wakes: either way
	// a promise stays pending, node runs out of things to wait on and exits
	// 13 before writing its JSON. A local server needs neither a timeout
	// nor retries; the whole run has a deadline instead (linksTimeout), and
	// a request that fails is a broken link.
	args = append(args, "--recurse", "--format", "json", "--skip", skip, "--timeout", "0", "--verbosity", "error",
		"--concurrency", "25")
	tl := Tool{Name: "linkinator", Path: bin, Args: args, Dir: dir, Runtime: "node", Timeout: linksTimeout, Report: []int{1}}
	res := Run(t, tl)
	// linkinator exits 1 when a link is broken; only an unreadable report
	// means the tool itself failed.
	var rep linkinatorReport
	if err := json.Unmarshal(res.Stdout, &rep); err != nil {
		BadReport(t, tl, res, err)
	}
	if res.Exit != 0 && rep.Passed {
		BadReport(t, tl, res, errors.New("it exited 1 but reports that every link passed"))
	}
	out := rep.broken(base)
	if !rep.Passed && len(out) == 0 {
		BadReport(t, tl, res, errors.New("it reports failure but no BROKEN link"))
	}
	sort.Strings(out)
	return out
}

// broken returns the report's broken links, once each, as
// "URL (HTTP status) on PARENT" with base taken off the URLs.
func (rep *linkinatorReport) broken(base string) []string {
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
	return out
}
