package mcpserver

import (
	"slices"
	"strconv"
	"strings"

	"incidentlib/internal/cases"
	"incidentlib/internal/search"
)

// argName is the argument name of a facet (cases.Facet.Arg).
func argName(facet string) string { return cases.FacetByName(facet).Arg() }

// filterFacets are the facets that filter search_incidents and
// list_incidents, in the table's order.
func filterFacets() []*cases.Facet {
	var out []*cases.Facet
	for _, f := range cases.Facets {
		if f.Shows(cases.InSearch) {
			out = append(out, f)
		}
	}
	return out
}

// filterParams are the facet filters of search_incidents and
// list_incidents, one per facet of filterFacets: their input schemas and
// their parsing follow from these.
func filterParams() []param {
	var ps []param
	for _, f := range filterFacets() {
		ps = append(ps, param{name: f.Arg(), kind: kTerms, desc: f.FilterDoc + "; terms of one facet are ORed, facets ANDed"})
	}
	return ps
}

// facetOf reads a facet argument: a URL name, or one spelled as an
// argument ("root_causes").
func facetOf(c *call, arg string) (string, error) {
	f := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(arg)), "_", "-")
	if cases.FacetByName(f) != nil {
		return f, nil
	}
	names := cases.FacetNames()
	return "", c.fail("err.facet", echo(arg), c.didYouMean(f, names), strings.Join(names, ", "))
}

// terms returns the term ids of a facet: the whole vocabulary of a
// controlled facet (terms without cases included), the organisations and
// years that cases have otherwise.
func (m *model) terms(facet string) []string {
	var ids []string
	if f := cases.FacetByName(facet); f.Controlled {
		for _, t := range m.lib.Vocab.Terms(f.Field) {
			ids = append(ids, t.ID)
		}
		return ids
	}
	for _, t := range m.model.Topics()[facet].Topics {
		ids = append(ids, t.ID)
	}
	return ids
}

// vocabTerm looks a term of a controlled facet up in the vocabulary.
func (m *model) vocabTerm(facet, id string) (cases.Term, bool) {
	if f := cases.FacetByName(facet); f.Controlled {
		return m.lib.Vocab.Term(f.Field, id)
	}
	return cases.Term{}, false
}

// checkTerm checks a term of a facet. A term of a controlled vocabulary
// must be in it (a typo gets its did-you-mean); a year must look like
// one; an organisation without cases simply has none, with a note when
// its slug is close to one that has.
func (m *model) checkTerm(c *call, facet, id, arg string) error {
	known := m.terms(facet)
	if slices.Contains(known, id) {
		return nil
	}
	switch cases.FacetByName(facet) {
	case cases.Years:
		if y, err := strconv.Atoi(id); err != nil || y < 1000 || y > 9999 {
			return c.fail("err.year", arg, echo(id))
		}
		return nil
	case cases.Orgs:
		c.note("note.no_such_org", strconv.Quote(id), c.didYouMean(id, known))
		return nil
	}
	return c.fail("err.term", arg, echo(id), c.didYouMean(id, known), strconv.Quote(facet))
}

// filter checks the filter arguments and returns them by facet URL name.
func (m *model) filter(c *call) (search.Filter, error) {
	out := search.Filter{}
	for _, f := range filterFacets() {
		facet := f.Name
		ids := c.list(f.Arg())
		if len(ids) == 0 {
			continue
		}
		var resolved []string
		for _, v := range ids {
			id, err := m.resolveTerm(c, facet, v, f.Arg())
			if err != nil {
				return nil, err
			}
			if err := m.checkTerm(c, facet, id, f.Arg()); err != nil {
				return nil, err
			}
			if !slices.Contains(resolved, id) {
				resolved = append(resolved, id)
			}
		}
		out[facet] = resolved
	}
	return out, nil
}

// describe writes the filters for a text answer: components=ingress,cdn.
func describe(c *call, f search.Filter) string {
	var parts []string
	for _, facet := range cases.FacetNames() {
		if ids := f[facet]; len(ids) > 0 {
			parts = append(parts, argName(facet)+"="+strings.Join(ids, ","))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return c.t("filters", strings.Join(parts, "; "))
}
