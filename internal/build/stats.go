package build

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"incidentlib/internal/library"
	"incidentlib/internal/site"
)

// Result describes a finished build.
type Result struct {
	Pages int // HTML pages
	Files int // all files written
	Bytes int64
	Cases int
	// BaseURL is the public address the pages were written for: -base-url,
	// or base_url in site.json.
	BaseURL string
	// Drafts are the ids of the case files marked "draft": true, which the
	// build left out.
	Drafts []string
	// RepositoryURL is site.json's repository.url.
	RepositoryURL string
	Stages        []library.Stage
	Total         time.Duration
	// Kinds counts files per language and kind of page, for the summary.
	Kinds map[string]int
	// Written, Kept and Removed count the files of the output (the marker
	// left out) that this build wrote, that it kept from the earlier output
	// because their bytes were the same (same file, same modification
	// time), and that the earlier output had and this one has not.
	Written, Kept, Removed int
	// Warnings say what went wrong after the new output was in place, such
	// as a part of the old one that could not be removed.
	Warnings []string
	// Engines says which templates htmlexec ran and how often it handed a
	// page back to html/template (see site.Engines).
	Engines site.Engines

	renderTime, writeTime time.Duration // summed over the page workers
}

// Summary is the one line a build ends with.
func (s *Result) Summary() string {
	return fmt.Sprintf("built %s cases: %d pages, %d files, %s in %s",
		fmtInt(s.Cases), s.Pages, s.Files, fmtBytes(s.Bytes), s.Total.Round(time.Millisecond))
}

func fmtInt(n int) string { return fmt.Sprintf("%d", n) }

func fmtBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func kindName(j site.Job) string {
	name := j.Kind.String()
	if j.Lang != "" {
		return j.Lang + " " + name
	}
	return name
}

// KindLines says what the build wrote, one line per language and one for
// the files shared by both, such as "en: 14 case pages, 2 case lists, …".
func (s *Result) KindLines() []string {
	groups := map[string][]string{}
	var names []string
	for k := range s.Kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		group, kind := "site", k
		if lang, rest, ok := strings.Cut(k, " "); ok && (lang == "en" || lang == "ko") {
			group, kind = lang, rest
		}
		n := s.Kinds[k]
		if n != 1 && kind != "home" && kind != "404" && kind != "robots.txt" && kind != "sitemap" {
			kind += "s" // every kind name is an English noun with a plain plural
		}
		groups[group] = append(groups[group], fmt.Sprintf("%d %s", n, kind))
	}
	var lines []string
	for _, g := range []string{"en", "ko", "site"} {
		if len(groups[g]) > 0 {
			lines = append(lines, g+": "+strings.Join(groups[g], ", "))
		}
	}
	return lines
}
