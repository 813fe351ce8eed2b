package library

import (
	"net/url"
	"slices"
	"strings"

	"incidentlib/internal/cases"
)

// NormalizeSource returns the form of a source address under which two
// spellings of one document meet: the scheme as https (http and https
// serve the same post-mortem), the host in lower case without "www." and
// without a default port, no trailing slash on the path, no fragment, and
// the query without tracking parameters (utm_*, fbclid, gclid and their
// kin), its other parameters sorted. An address that does not parse is
// returned trimmed, as it is.
func NormalizeSource(raw string) string {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "") {
		return raw
	}
	host := strings.ToLower(u.Hostname())
	host = strings.TrimPrefix(host, "www.")
	host = strings.TrimSuffix(host, ".")
	if port := u.Port(); port != "" && port != "80" && port != "443" {
		host += ":" + port
	}
	path := strings.TrimRight(u.EscapedPath(), "/")
	var keep []string
	if u.RawQuery != "" {
		for _, part := range strings.Split(u.RawQuery, "&") {
			name, _, _ := strings.Cut(part, "=")
			if part == "" || trackingParam(strings.ToLower(name)) {
				continue
			}
			keep = append(keep, part)
		}
		slices.Sort(keep)
	}
	out := "https://" + host + path
	if len(keep) > 0 {
		out += "?" + strings.Join(keep, "&")
	}
	return out
}

// trackingParam reports whether a query parameter only says where a reader
// came from, never which document they read.
func trackingParam(name string) bool {
	if strings.HasPrefix(name, "utm_") {
		return true
	}
	switch name {
	case "fbclid", "gclid", "dclid", "msclkid", "mc_cid", "mc_eid", "_hsenc", "_hsmi", "mkt_tok", "ref_src", "si", "igshid", "yclid", "twclid":
		return true
	}
	return false
}

// SourceCases maps every normalised source address of the listed and the
// withdrawn cases to the ids of the cases that cite it, in the library's
// order; the addresses come sorted.
func SourceCases(lib *cases.Library) (addrs []string, ids map[string][]string) {
	ids = map[string][]string{}
	for _, list := range [][]*cases.Case{lib.Cases, lib.Withdrawn} {
		for _, c := range list {
			for _, s := range c.Sources {
				n := NormalizeSource(s.URL)
				if l := ids[n]; len(l) == 0 || l[len(l)-1] != c.ID {
					ids[n] = append(l, c.ID)
				}
			}
		}
	}
	for a := range ids {
		addrs = append(addrs, a)
	}
	slices.Sort(addrs)
	return addrs, ids
}

// BySource returns the ids of the cases, listed or withdrawn, that cite
// the document at addr, however its address is spelt (NormalizeSource).
func (l *Library) BySource(addr string) []string {
	z := l.lazy
	z.sourcesOnce.Do(func() { _, z.sources = SourceCases(l.Lib) })
	return z.sources[NormalizeSource(addr)]
}
