package cases

import (
	"fmt"

	"incidentlib/internal/diag"
	"incidentlib/internal/jsonpos"
)

// NewVocab makes a vocabulary from the terms of each controlled facet, by
// its vocab.json field, and the organisations, as a program that makes a
// library without a content folder needs one.
func NewVocab(terms map[string][]Term, orgs []Term) Vocab {
	v := Vocab{terms: terms, Orgs: orgs}
	v.buildIndex()
	return v
}

// orgsField is vocab.json's list of organisations, which is no facet's
// vocabulary: it only names the organisations the cases give (Vocab.Orgs).
const orgsField = "orgs"

// Terms returns the terms of a controlled facet's vocab.json field.
func (v *Vocab) Terms(field string) []Term { return v.terms[field] }

// Term looks a term up by vocab.json field and id.
func (v *Vocab) Term(field, id string) (Term, bool) {
	i, ok := v.index[field][id]
	if !ok {
		return Term{}, false
	}
	return v.Terms(field)[i], true
}

// Rank returns the position of a term in its vocabulary's display order.
func (v *Vocab) Rank(field, id string) int {
	if i, ok := v.index[field][id]; ok {
		return i
	}
	return 1 << 30
}

func (v *Vocab) buildIndex() {
	v.index = map[string]map[string]int{}
	for _, f := range ControlledFacets() {
		m := map[string]int{}
		for i, t := range v.Terms(f.Field) {
			m[t.ID] = i
		}
		v.index[f.Field] = m
	}
	m := map[string]int{}
	for i, t := range v.Orgs {
		m[t.ID] = i
	}
	v.index[orgsField] = m
	m = map[string]int{}
	var products []string
	for i, p := range v.Products {
		m[p.ID] = i
		products = append(products, p.ID)
	}
	v.index[productsField] = m
	v.suggest = map[string]*suggester{}
	for _, f := range ControlledFacets() {
		var ids []string
		for _, t := range v.Terms(f.Field) {
			ids = append(ids, t.ID)
		}
		v.suggest[f.Field] = newSuggester(ids)
	}
	v.suggest[productsField] = newSuggester(products)
}

func convertVocab(v *jsonpos.Value, p *parsed, list *diag.List) Vocab {
	voc := Vocab{terms: map[string][]Term{}}
	for _, facet := range ControlledFacets() {
		f := facet.Field
		seen := map[string]bool{}
		var terms []Term
		for i, it := range getList(v, f) {
			if it.Kind != jsonpos.Object {
				continue
			}
			t := Term{ID: getStr(it, "id"), Label: Bilingual{En: getStr(it, "en"), Ko: getStr(it, "ko")}, Description: getText(it, "description")}
			if seen[t.ID] {
				line, col := p.pos(it)
				list.Errorf(p.file, line, col, fmt.Sprintf("%s[%d].id", f, i), "duplicate term %q", t.ID)
				continue
			}
			seen[t.ID] = true
			terms = append(terms, t)
		}
		voc.terms[f] = terms
	}
	seen := map[string]bool{}
	for i, it := range getList(v, orgsField) {
		if it.Kind != jsonpos.Object {
			continue
		}
		t := Term{ID: getStr(it, "id"), Label: Bilingual{En: getStr(it, "en"), Ko: getStr(it, "ko")}, NameKo: getStr(it, "name_ko")}
		if seen[t.ID] {
			line, col := p.pos(it)
			list.Errorf(p.file, line, col, fmt.Sprintf("orgs[%d].id", i), "duplicate organisation %q", t.ID)
			continue
		}
		seen[t.ID] = true
		voc.Orgs = append(voc.Orgs, t)
	}
	convertProducts(v, p, &voc, func(line, col int, field, format string, args ...any) {
		list.Errorf(p.file, line, col, field, format, args...)
	})
	return voc
}

// orgName returns the names vocab.json gives the organisation slug.
func (v *Vocab) orgName(slug string) (Bilingual, bool) {
	i, ok := v.index[orgsField][slug]
	if !ok {
		return Bilingual{}, false
	}
	return v.Orgs[i].Label, true
}

// checkOrgs warns, once per organisation, about cases whose organisation
// has no entry in vocab.json's orgs while that list is in use: such a case
// is not found by the organisation's Korean name.
func checkOrgs(lib *Library, list *diag.List) {
	if len(lib.Vocab.Orgs) == 0 || lib.Vocab.broken {
		return
	}
	warned := map[string]bool{}
	for _, c := range lib.Cases {
		orgWarning(lib, c, warned, list)
	}
}

// orgWarning is checkOrgs's warning for one case, unless warned holds its
// organisation (ReloadEdited gives it for an edited case alone).
func orgWarning(lib *Library, c *Case, warned map[string]bool, list *diag.List) {
	if len(lib.Vocab.Orgs) == 0 || lib.Vocab.broken {
		return
	}
	// An empty or malformed slug is already an error of its own.
	if _, ok := lib.Vocab.orgName(c.OrgSlug); ok || warned[c.OrgSlug] || !isSlug(c.OrgSlug) {
		return
	}
	warned[c.OrgSlug] = true
	line, col := fieldPos(c, "org_slug")
	list.Warnf(c.File, line, col, "org_slug", "organisation %q has no entry in vocab.json's orgs, so search will not find it by its Korean name%s", c.OrgSlug, orgFix(&lib.Vocab, c))
}

// orgAlias returns the Korean spelling of an organisation's name, or "".
func (v *Vocab) orgAlias(slug string) string {
	t, _ := v.orgName(slug)
	return t.Ko
}

// orgNameKo returns the Korean name Korean pages show for an organisation
// whose English name is a description, or "".
func (v *Vocab) orgNameKo(slug string) string {
	if i, ok := v.index[orgsField][slug]; ok {
		return v.Orgs[i].NameKo
	}
	return ""
}
