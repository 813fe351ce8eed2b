package search

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"incidentlib/internal/cases"
	"incidentlib/internal/urls"
)

// The layout of the index's files is one contract, written here and read
// by static/js/search.js from the manifest: the paths of the group files,
// buckets, records, suggestion lists and facet files are templates in the
// manifest's "layout", with the file key rule named there too. A reader
// knows two names only: "manifest", and "facets" (the summary an idle
// search page shows before it needs anything else).

// formatVersion is the manifest's "v": what a reader must understand of
// the files beyond their paths (postings.go, idf).
const formatVersion = 3

// keyRule names the rule of fileKey, the manifest's layout.key; a reader
// that does not know it refuses the index instead of asking for files that
// are not there. (The rule before it, "escape-64", escaped with "_", and
// GitHub Pages' Jekyll drops every file whose name starts with one.)
const keyRule = "dash-64w"

// layout holds the path templates of the index's files, as the manifest
// gives them. {key} is fileKey of a group's or a bucket's first boundary,
// or a suggestion list's key (suggestKey); {doc} a document number;
// {facet} a facet's URL name.
type layout struct {
	Groups      string `json:"groups"`
	Buckets     string `json:"buckets"`
	Key         string `json:"key"`
	Records     string `json:"records"`
	Suggestions string `json:"suggestions"`
	Facets      string `json:"facets"`
}

var indexLayout = layout{
	Groups:      "b/{key}",
	Buckets:     "t/{key}",
	Key:         keyRule,
	Records:     "r/{doc}",
	Suggestions: "s/{key}",
	Facets:      "f/{facet}",
}

// path fills the template with one value.
func path(template, value string) string {
	i := strings.IndexByte(template, '{')
	j := strings.IndexByte(template, '}')
	if i < 0 || j < i {
		panic("search: layout template " + template + " has no placeholder")
	}
	return template[:i] + value + template[j+1:]
}

type manifest struct {
	Version int      `json:"v"`
	Docs    int      `json:"docs"`
	Scale   int      `json:"scale"`  // postings hold weights ×scale (termWeight)
	Groups  []string `json:"groups"` // the first boundary of each group
	Facets  []string `json:"facets"`
	// Filters are the facets the search page filters by, in the order it
	// lists them and reads them from its address, with the name of one
	// term of each in both languages: the facet table of package cases,
	// which search.js does not repeat.
	Filters []filter `json:"filters"`
	Layout  layout   `json:"layout"`
}

type filter struct {
	Name  string    `json:"name"`
	Label [2]string `json:"l"`
	// Newest lists the terms by id, newest first (years), rather than by
	// their number of cases.
	Newest bool `json:"newest,omitempty"`
}

// searchFilters returns the facets of the table that search filters by.
func searchFilters() []filter {
	out := []filter{}
	for _, f := range cases.Facets {
		if f.Shows(cases.InSearch) {
			out = append(out, filter{f.Name, [2]string{f.One.En, f.One.Ko}, f.Order == cases.NewestFirst})
		}
	}
	return out
}

// maxKey bounds the length of a file key.
const maxKey = 64

// fileKey names the file of a group or a bucket after its first boundary,
// which the reader has in hand when it needs the file: letters a-z and
// digits stay as they are, any other character becomes - and four hex
// digits (-- and six beyond U+FFFF), and "" becomes "-". Names are ASCII
// and lower case, so they survive any file system and URL, and none starts
// with a character a static host hides ("_", "." for Jekyll). A key longer
// than maxKey keeps its start and ends in . and the 32-bit FNV-1a hash of
// the boundary's UTF-8 (a dot, which no escape holds, so that a long key
// never reads as a short one). Naming files by what they hold, not by their place
// in the list, means that a bucket added or dropped renames no other. A
// key that Windows keeps for a device (con, nul, com1, …: urls.Reserved)
// gets a _ at its end, which no other key holds (a "_" is escaped), so that
// the offline bundle unpacks there (rule "dash-64w").
func fileKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9':
			b.WriteRune(r)
		case r <= 0xffff:
			fmt.Fprintf(&b, "-%04x", r)
		default:
			fmt.Fprintf(&b, "--%06x", r)
		}
	}
	k := b.String()
	if k == "" {
		return "-"
	}
	if urls.Reserved(k) {
		return k + "_"
	}
	if len(k) > maxKey {
		h := fnv.New32a()
		h.Write([]byte(s))
		k = k[:maxKey-9] + "." + fmt.Sprintf("%08x", h.Sum32())
	}
	return k
}

// hashString is hashRunes over the bytes of s: which terms and boundaries
// may start a bucket or a group.
func hashString(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	h ^= h >> 16
	h *= 0x85ebca6b
	return h ^ h>>13
}

// cutBefore says whether a bucket (or group) that has size bytes (or
// buckets) so far ends before an item of n more, whose hash is h: when the
// item would take it over max, or when it has min already and the hash says
// so, one time in spread. The cuts depend on the items and not on where a
// running count happens to fall, so a change in one bucket moves no cut
// beyond the next one that both sides agree on, usually the next.
func cutBefore(size, n, min, max, spread int, h uint32) bool {
	return size > 0 && (size+n > max || size >= min && h%uint32(spread) == 0)
}

// writeManifest writes the group files, each listing the first boundary
// of its buckets, and the manifest, which lists the first boundary of each
// group. Groups are cut like buckets, by the hash of a bucket's boundary.
func writeManifest(docs int, boundaries, facetNames []string, cfg config, out *files) error {
	groups := []string{}
	start := 0
	flush := func(end int) error {
		if end == start {
			return nil
		}
		groups = append(groups, boundaries[start])
		err := out.value(path(indexLayout.Groups, fileKey(boundaries[start])), boundaries[start:end])
		start = end
		return err
	}
	for i, b := range boundaries {
		// The high bits of the hash: the low ones chose the boundary (a
		// bucket's first term), so they are not random among boundaries.
		if cutBefore(i-start, 1, cfg.groupMin, cfg.groupMax, cfg.groupSpread, hashString(b)>>16) {
			if err := flush(i); err != nil {
				return err
			}
		}
	}
	if err := flush(len(boundaries)); err != nil {
		return err
	}
	return out.value("manifest", manifest{
		Version: formatVersion, Docs: docs, Scale: scoreScale, Groups: groups, Facets: facetNames,
		Filters: searchFilters(), Layout: indexLayout,
	})
}

// recordPath is the path of document n's record.
func recordPath(n int) string { return path(indexLayout.Records, strconv.Itoa(n)) }
