package mcpserver

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"incidentlib/internal/cases"
)

// Argument names a model may send for the one a tool takes: forgiving,
// but never silent. A name that is not a parameter is matched to the one
// it was meant for when exactly one parameter is that close (the same
// name in another case or with - for _, its singular or plural, a facet's
// field name such as root_cause, a common synonym, or a typo of one
// letter, or two in a name of five or more), and the answer's notes say
// so; any other unknown name is refused with the list of the tool's
// arguments, so that a filter the model meant is never dropped unnoticed.

// nameAliases are other names models use for an argument.
var nameAliases = map[string]string{
	"q": "query", "text": "query", "keywords": "query", "search": "query",
	"language": "lang", "locale": "lang",
	"organisation": "orgs", "organisations": "orgs", "organization": "orgs", "organizations": "orgs", "org": "orgs", "company": "orgs",
	"max_results": "limit", "page_size": "limit",
	"case_id": "id", "incident_id": "id", "incident": "id",
}

// normName folds case and separators: "Root-Causes" is root_causes.
func normName(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.NewReplacer("-", "_", " ", "_").Replace(s)
}

// meantName returns the parameter an unknown name was meant for, or "".
func meantName(name string, params []param) string {
	n := normName(name)
	var names []string
	for _, p := range params {
		names = append(names, p.name)
	}
	has := func(s string) bool { return slices.Contains(names, s) }
	for _, try := range []string{n, n + "s", n + "es", strings.TrimSuffix(n, "s"), nameAliases[n]} {
		if try != "" && try != name && has(try) {
			return try
		}
	}
	for _, f := range cases.Facets {
		if n == f.Field && has(f.Arg()) {
			return f.Arg()
		}
	}
	// A typo of a parameter or of an alias: the nearest, when only one
	// parameter is that near.
	limit := 1
	if len(n) > 4 {
		limit = 2
	}
	best, bestD, count := "", limit+1, 0
	consider := func(cand, target string) {
		switch d := cases.EditDistance(n, cand); {
		case d > bestD || !has(target):
		case d < bestD:
			best, bestD, count = target, d, 1
		case target != best:
			count++
		}
	}
	for _, p := range names {
		consider(p, p)
	}
	for alias, target := range nameAliases {
		consider(alias, target)
	}
	if count == 1 {
		return best
	}
	return ""
}

// renameArgs moves each argument of in whose name no parameter has to the
// parameter it was meant for, and returns the moves (from, to) and the
// names it could not place, sorted.
func renameArgs(in map[string]json.RawMessage, params []param) (moved [][2]string, left []string) {
	var unknown []string
	for name := range in {
		if !slices.ContainsFunc(params, func(p param) bool { return p.name == name }) {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	for _, name := range unknown {
		to := meantName(name, params)
		if _, taken := in[to]; to == "" || taken {
			left = append(left, name)
			continue
		}
		in[to] = in[name]
		delete(in, name)
		moved = append(moved, [2]string{name, to})
	}
	return moved, left
}
