package cases

import (
	"slices"
	"strconv"
	"strings"
)

// # Facets
//
// A facet is a way of grouping cases: by component, by root cause, by
// organisation, by year, … Each is one row of the table Facets, and that row
// is the only place that says which field of a case feeds it, where it
// shows and how its terms sort; what it is called in each language is the
// string catalogue's (its "facet." keys). The loader and its
// checks, the JSON Schema, the site's pages, the search index, the API and
// the MCP tools all iterate the table; none of them names a facet except
// where one facet has a place of its own (the case page's root cause, the
// years chart of a topic's statistics, the closing sentence that names its
// components), and they do so through the variables below, not a string.
// ReplaceFacets lets a test add a row and see every consumer follow.

// Facet is one way of grouping cases.
type Facet struct {
	// Name is the facet's URL segment ("root-causes"), the name the search
	// index files and filters use, and, with "_" for "-", its argument in
	// the MCP tools and its key in statistics ("root_causes"; see Arg).
	Name string
	// Field is the member of a case file that holds the facet's terms
	// ("root_cause"), and of vocab.json that lists them when Controlled.
	// It is "" for a facet whose terms come from another member of the
	// case (the year of its date).
	Field string
	// Kind says how a case holds its terms in Field.
	Kind FacetKind
	// Controlled is set when the terms are vocab.json's Field list and a
	// case may use no other (Unknown aside).
	Controlled bool
	// Unknown is a value a case may give instead of a term, such as the
	// severity "unknown": it passes the checks and has no topic.
	Unknown string
	// Optional lets a case leave Field out. A facet with an Unknown value
	// then holds that value (a case without "severity" has the severity
	// "unknown"); one without holds no term.
	Optional bool
	// Doc describes Field in the published JSON Schema of a case; it is ""
	// when the schema declares the member for reasons of its own (org_slug).
	Doc string
	// Label names the facet on its pages and in the navigation, in both
	// languages; One names one of its terms, as the search page's filters
	// title them; Intro opens the page that lists its terms. The words are
	// the catalogue's "facet.NAME.label", ".one" and ".intro" (see
	// catalogue.go), given at initialisation.
	Label, One, Intro Bilingual
	// Top titles the facet's most common terms in a topic's statistics
	// (when the facet shows InStats): the catalogue's "facet.NAME.top".
	Top Bilingual
	// FilterDoc describes the facet's filter argument in the MCP tools.
	FilterDoc string
	// Show says where the facet appears beyond its own pages (every facet
	// has a page listing its terms and a topic page per term).
	Show Show
	// HomeCount is the facet's place (from 1) among the counts at the top
	// of the home page, or 0 when it has none there. Its sentence is the
	// interface string "home.count_" + Name.
	HomeCount int
	// Order says how the facet's topics are listed.
	Order Order

	// list and one reach the member of Case that holds the terms of a
	// facet the Case type names; derive computes them for a facet without
	// a Field. A facet with none of the three keeps its terms beside the
	// case's other facets (Case.other), so that a facet can be added to
	// the table without a member of Case.
	list   func(*Case) *[]string
	one    func(*Case) *string
	derive func(*Case) (string, bool)
}

// FacetKind is how a case holds a facet's terms.
type FacetKind int

const (
	// Many is a list of terms: "components": ["ingress", "dns"].
	Many FacetKind = iota
	// One is a single term: "root_cause": "software-bug".
	One
	// Derived terms come from another member of the case (a year from
	// the date).
	Derived
)

// Show is a set of places where a facet appears.
type Show uint8

const (
	// InNav puts the facet in every page's header.
	InNav Show = 1 << iota
	// OnHome lists the facet's largest topics on the home page.
	OnHome
	// InSearch makes the facet a filter of the search page and of the
	// MCP tools.
	InSearch
	// InStats lists the facet's most common terms in the statistics of a
	// topic (its page, the API and the MCP tools), under its Top title.
	InStats
	// InChecklist gives the facet's topics a checklist drawn from their
	// cases' action items and lessons (their pages, the API).
	InChecklist
	// InPrepare makes the facet's terms what a reader picks on the prepare
	// page and in the MCP tool prepare: the parts of their stack.
	InPrepare
)

// Order is how a facet lists its topics.
type Order int

const (
	// ByVocab is the order of vocab.json.
	ByVocab Order = iota
	// ByName is by label, as a reader looks a name up: the Unicode
	// collation, then the bytes, then the id.
	ByName
	// NewestFirst is by id, descending: years, newest first.
	NewestFirst
)

// The facets that some page gives a place of its own, by name in Go so that
// a rename is a compile error rather than a silent miss.
var (
	Components = &Facet{
		Name: "components", Field: "components", Kind: Many, Controlled: true,
		Doc:       "Component term ids.",
		FilterDoc: "component term ids, such as ingress (see vocab)",
		Show:      InNav | OnHome | InSearch | InStats | InChecklist | InPrepare, HomeCount: 2,
		list: func(c *Case) *[]string { return &c.Components },
	}
	Symptoms = &Facet{
		Name: "symptoms", Field: "symptoms", Kind: Many, Controlled: true,
		Doc:       "Symptom term ids.",
		FilterDoc: "symptom term ids, such as high-error-rate",
		Show:      InNav | OnHome | InSearch | InChecklist,
		list:      func(c *Case) *[]string { return &c.Symptoms },
	}
	RootCauses = &Facet{
		Name: "root-causes", Field: "root_cause", Kind: One, Controlled: true,
		Doc:       "The root cause term id.",
		FilterDoc: "root cause term ids, such as software-bug",
		Show:      InNav | OnHome | InSearch | InStats, HomeCount: 3,
		one: func(c *Case) *string { return &c.RootCause },
	}
	Contributing = &Facet{
		Name: "contributing", Field: "contributing", Kind: Many, Controlled: true,
		Doc:       "Contributing factor term ids.",
		FilterDoc: "contributing factor term ids, such as automation-amplified",
		Show:      OnHome | InSearch | InStats | InChecklist,
		list:      func(c *Case) *[]string { return &c.Contributing },
	}
	Domains = &Facet{
		Name: "domains", Field: "domain", Kind: Many, Controlled: true,
		Doc:       "Domain term ids.",
		FilterDoc: "domain term ids, such as kubernetes",
		Show:      OnHome | InSearch,
		list:      func(c *Case) *[]string { return &c.Domain },
	}
	// Orgs have no controlled vocabulary: the cases name them, and
	// vocab.json's orgs (Vocab.Orgs) only spell them in Korean.
	Orgs = &Facet{
		Name: "orgs", Field: "org_slug", Kind: One,
		FilterDoc: "organisation slugs, such as google-cloud",
		Show:      InNav | OnHome | InSearch, HomeCount: 1, Order: ByName,
		one: func(c *Case) *string { return &c.OrgSlug },
	}
	Years = &Facet{
		Name: "years", Kind: Derived,
		FilterDoc: "years of the incident, such as 2024 (a number or a string)",
		Show:      InSearch, Order: NewestFirst,
		derive: func(c *Case) (string, bool) {
			if !c.Date.Known() {
				return "", false
			}
			return strconv.Itoa(c.Date.Year), true
		},
	}
	// Products are the products a case names as affected (Case.Affected),
	// by vocab.json's products: a reader filters by what they run.
	Products = &Facet{
		Name: "products", Kind: Derived,
		FilterDoc: "product slugs a case names as affected, such as ingress-nginx (see vocab's products)",
		Show:      InSearch, Order: ByName,
		list: func(c *Case) *[]string { return &c.Products },
	}
	// ImpactLevels say how bad the incident was for its users, in words
	// every source supports (full outage, degraded, near miss, …); it is
	// the headline the organisation's own severity, rarely published, is
	// not.
	ImpactLevels = &Facet{
		Name: "impact-levels", Field: "impact_level", Kind: One, Controlled: true,
		Doc:       "The impact level term id: the worst effect the incident had on its users.",
		FilterDoc: "impact level term ids, such as partial-outage",
		Show:      OnHome | InSearch,
		one:       func(c *Case) *string { return &c.ImpactLevel },
	}
	// Severities are the organisation's own severity, which few sources
	// give: a case may leave it out, and only its own pages list it.
	Severities = &Facet{
		Name: "severities", Field: "severity", Kind: One, Controlled: true, Unknown: "unknown", Optional: true,
		Doc:       "The organisation's own severity term id, or \"unknown\" (the same as leaving it out).",
		FilterDoc: "severity term ids",
		one:       func(c *Case) *string { return &c.Severity },
	}
)

// Facets is the facet table, in menu order: the order of the navigation,
// the home page, the search filters and the MCP arguments. It is not written
// after initialisation, except by ReplaceFacets in a test.
var Facets = []*Facet{Components, Symptoms, RootCauses, Contributing, Domains, Orgs, Years, Products, ImpactLevels, Severities}

// FacetNames returns the URL names of the facets in menu order.
func FacetNames() []string {
	out := make([]string, len(Facets))
	for i, f := range Facets {
		out[i] = f.Name
	}
	return out
}

// FacetByName returns the facet with the URL name, or nil.
func FacetByName(name string) *Facet {
	for _, f := range Facets {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// FacetOfField returns the controlled facet whose vocabulary is the
// vocab.json field, or nil.
func FacetOfField(field string) *Facet {
	for _, f := range Facets {
		if f.Controlled && f.Field == field {
			return f
		}
	}
	return nil
}

// StatsFacets returns the facets whose most common terms a topic's
// statistics list, in menu order.
func StatsFacets() []*Facet {
	var out []*Facet
	for _, f := range Facets {
		if f.Shows(InStats) {
			out = append(out, f)
		}
	}
	return out
}

// ControlledFacets returns the facets with a vocabulary, in menu order.
func ControlledFacets() []*Facet {
	var out []*Facet
	for _, f := range Facets {
		if f.Controlled {
			out = append(out, f)
		}
	}
	return out
}

// Arg is the facet's name as JSON arguments and keys spell it: "-" is "_".
func (f *Facet) Arg() string { return strings.ReplaceAll(f.Name, "-", "_") }

// Shows reports whether the facet appears in every place of s.
func (f *Facet) Shows(s Show) bool { return f.Show&s == s }

// HasTopic reports whether a term a case gives has a topic of its own: the
// facet's Unknown value has none.
func (f *Facet) HasTopic(id string) bool { return id != "" && (f.Unknown == "" || id != f.Unknown) }

// Terms returns the case's terms in the facet, in the case's order. The
// severity "unknown" and the like are returned too (see HasTopic).
func (f *Facet) Terms(c *Case) []string {
	switch {
	case f.list != nil:
		return *f.list(c)
	case f.one != nil:
		return []string{*f.one(c)}
	case f.derive != nil:
		if id, ok := f.derive(c); ok {
			return []string{id}
		}
		return nil
	}
	return c.other[f.Name]
}

// Each calls fn with each of the case's terms in the facet, as Terms
// returns them, without making a slice for a facet of one term.
func (f *Facet) Each(c *Case, fn func(id string)) {
	switch {
	case f.list != nil:
		for _, id := range *f.list(c) {
			fn(id)
		}
	case f.one != nil:
		fn(*f.one(c))
	case f.derive != nil:
		if id, ok := f.derive(c); ok {
			fn(id)
		}
	default:
		for _, id := range c.other[f.Name] {
			fn(id)
		}
	}
}

// setTerms stores the terms the loader read from the facet's Field.
func (f *Facet) setTerms(c *Case, ids []string) {
	switch {
	case f.list != nil:
		*f.list(c) = ids
	case f.one != nil:
		if len(ids) > 0 {
			*f.one(c) = ids[0]
		}
	case f.derive != nil:
	default:
		if c.other == nil {
			c.other = map[string][]string{}
		}
		c.other[f.Name] = ids
	}
}

// EachTerm calls fn with every term the case is grouped under, facet by
// facet in menu order. The severity "unknown" is passed too; it has no
// topic page (Facet.HasTopic).
func (c *Case) EachTerm(fn func(f *Facet, id string)) {
	for _, f := range Facets {
		f.Each(c, func(id string) { fn(f, id) })
	}
}

// ReplaceFacets makes facets the table until the returned function puts the
// old one back, and makes the schemas of case and vocab.json files follow.
// It exists for the test that proves a facet is one row of the table: no
// program changes the table, and no two tests that call it may run at once.
func ReplaceFacets(facets []*Facet) (restore func()) {
	old, oldCase, oldVocab := Facets, CaseSchema, VocabSchema
	Facets = slices.Clone(facets)
	CaseSchema, VocabSchema = caseSchema(), vocabSchema()
	return func() { Facets, CaseSchema, VocabSchema = old, oldCase, oldVocab }
}
