package mcpserver

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/library"
	"incidentlib/internal/markup"
	"incidentlib/internal/urls"
)

// The tool prepare is the prepare page's answer ("my stack"): the parts of
// a stack (the facet that shows cases.InPrepare) and the products with
// their versions give the cases that apply and their merged checklist.
// version is the filter of search_incidents and list_incidents that keeps
// the cases whose affected versions of the one products filter's product
// hold it.

const (
	prepareDefault = 25
	prepareMax     = 60
	prepareCases   = 20 // cases named in the text
	// The structured content lists at most the newest prepareListed cases
	// that apply, and at most prepareItemCases cases of each checklist item,
	// with the counts of all: both grow with the library (a component's
	// cases are thousands at 10,000 cases, and so are those of its most
	// shared items), an answer does not.
	prepareListed    = 200
	prepareItemCases = 20
)

// prepareFacet is the facet whose terms a stack is made of.
func prepareFacet() *cases.Facet {
	for _, f := range cases.Facets {
		if f.Shows(cases.InPrepare) {
			return f
		}
	}
	return nil
}

// versionParam is the version filter of search_incidents and list_incidents.
var versionParam = param{name: "version", kind: kString, desc: "a version such as 1.11.2, with exactly one term in products: keeps the cases whose affected versions of that product include it"}

func prepareTool() tool {
	var params []param
	if f := prepareFacet(); f != nil {
		params = append(params, param{name: f.Arg(), kind: kTerms, desc: f.FilterDoc + ": the parts of your stack"})
	}
	params = append(params,
		param{name: "products", kind: kTerms, desc: "products you run, each as its slug (see vocab's products) or slug=version, such as ingress-nginx=1.11.2: a case that names the product only for other versions does not apply"},
		param{name: "lang", kind: kLang, desc: "language of the answer: en (default) or ko"},
		param{name: "limit", kind: kInt, desc: "checklist items to return, the most shared first: 25 by default, at most 60"},
	)
	return tool{
		mcp: declare("prepare", "What to check in my stack",
			"Turn the parts of a stack into what to check: the cases whose components are among them (or that name one of the products for the version given), "+
				"and one checklist drawn from those cases' action items and lessons, grouped by what each item is for (prevent, detect, mitigate, process), near-identical items of several cases merged into one line that names every case it came from, the most shared first. "+
				"Each line gives the cases with how far each got (done, planned, proposed, unknown) and their page URLs. The same as the site's prepare page.",
			outputSchema[prepareOutput]()),
		params: params,
		run:    prepare,
	}
}

type prepareOutput struct {
	Lang      string         `json:"lang" jsonschema:"the language of the answer"`
	Parts     []string       `json:"components" jsonschema:"the components asked for"`
	Products  []productPick  `json:"products" jsonschema:"the products asked for, with their versions"`
	Total     int            `json:"total" jsonschema:"number of cases that apply"`
	Cases     []caseItem     `json:"cases" jsonschema:"the cases that apply, newest first: the newest 200 when more apply (total counts them all)"`
	Items     int            `json:"items" jsonschema:"number of checklist items, before the limit"`
	Checklist []prepareGroup `json:"checklist" jsonschema:"the checklist by group, the most shared items first"`
	Page      string         `json:"page" jsonschema:"the site's prepare page with this choice, in the answer's language"`
	Notes     []string       `json:"notes,omitempty" jsonschema:"what the server changed or ignored in the call"`
}

type productPick struct {
	Product string `json:"product" jsonschema:"a product slug of vocab's products"`
	Version string `json:"version,omitempty" jsonschema:"the version given, if any"`
}

type prepareGroup struct {
	Group string        `json:"group" jsonschema:"prevent, detect, mitigate, process, other (the case does not say) or lessons"`
	Title string        `json:"title" jsonschema:"the group's title in the answer's language"`
	Items []prepareItem `json:"items" jsonschema:"its items, the most shared first"`
}

type prepareItem struct {
	Text  string        `json:"text" jsonschema:"what to check, in the answer's language (the first case's words)"`
	Cases []prepareFrom `json:"cases" jsonschema:"the cases it came from, newest first: the first 20 when it came from more"`
	More  int           `json:"more_cases,omitempty" jsonschema:"how many more cases it came from than cases lists"`
}

type prepareFrom struct {
	ID     string `json:"id" jsonschema:"the case id"`
	Status string `json:"status,omitempty" jsonschema:"how far that case got with it: done, planned, proposed or unknown; absent for a lesson"`
	URL    string `json:"url" jsonschema:"the case's page in the answer's language"`
}

// picks reads the products argument: slugs, each with =version or not.
func (m *model) picks(c *call) ([]productPick, error) {
	var out []productPick
	for _, arg := range c.list("products") {
		p, v, _ := strings.Cut(arg, "=")
		p, v = strings.ToLower(strings.TrimSpace(p)), strings.TrimSpace(v)
		if _, ok := m.lib.Vocab.Product(p); !ok {
			var ids []string
			for _, pr := range m.lib.Vocab.Products {
				ids = append(ids, pr.ID)
			}
			return nil, c.fail("err.product", echo(p), c.didYouMean(p, ids), strings.Join(ids, ", "))
		}
		if v != "" && !cases.IsVersion(v) {
			return nil, c.fail("err.version", "products", echo(v))
		}
		out = append(out, productPick{p, v})
	}
	return out, nil
}

// applies returns the cases that have one of parts or name a product of
// picks for its version, unless they name a product of picks only for
// other versions: the prepare page's rule.
func (m *model) applies(f *cases.Facet, parts []string, picks []productPick) []*cases.Case {
	var out []*cases.Case
	for _, c := range m.lib.Cases {
		byPart := f != nil && slices.ContainsFunc(f.Terms(c), func(id string) bool { return slices.Contains(parts, id) })
		byProduct, other := false, false
		for _, p := range picks {
			named, match := false, false
			for _, a := range c.Affected {
				if a.Product == p.Product {
					named = true
					match = match || (p.Version != "" && a.Matches(p.Version))
				}
			}
			switch {
			case named && p.Version == "":
				byProduct = true
			case match:
				byProduct = true
			case named:
				other = true
			}
		}
		if !other && (byPart || byProduct) {
			out = append(out, c)
		}
	}
	return out
}

func prepare(m *model, c *call) (string, any, error) {
	f := prepareFacet()
	out := prepareOutput{Lang: c.lang, Parts: []string{}, Products: []productPick{}, Cases: []caseItem{}, Checklist: []prepareGroup{}}
	if f != nil {
		out.Parts = append(out.Parts, c.list(f.Arg())...)
		for _, id := range out.Parts {
			if err := m.checkTerm(c, f.Name, id, f.Arg()); err != nil {
				return "", nil, err
			}
		}
	}
	picks, err := m.picks(c)
	if err != nil {
		return "", nil, err
	}
	out.Products = append(out.Products, picks...)
	if len(out.Parts) == 0 && len(picks) == 0 {
		arg := "products"
		if f != nil {
			arg = f.Arg()
		}
		return "", nil, c.fail("err.prepare_empty", arg)
	}
	n := limit(c, prepareDefault, prepareMax)
	cs := m.applies(f, out.Parts, picks)
	out.Total = len(cs)
	for _, cs := range cs[:min(len(cs), prepareListed)] {
		out.Cases = append(out.Cases, m.item(cs, c.lang))
	}
	params := []urls.Param{}
	if f != nil {
		params = append(params, urls.Param{Key: f.Name, Values: out.Parts})
	}
	for _, p := range picks {
		params = append(params, urls.Param{Key: p.Product, Values: []string{p.Version}})
	}
	out.Page = m.site.URL(urls.Prepare(c.lang) + urls.Query(params...))
	m.checklist(c, cs, n, &out)
	if out.Items > n {
		c.note("note.checklist_cut", l10n.Number(out.Items), l10n.Number(n))
	}
	text := prepareText(c, describePicks(f, out.Parts, picks), &out)
	out.Notes = c.notes
	return text, out, nil
}

// checklist puts the checklist of cases cs into out, its first n items in
// out.Checklist and the count of all of them in out.Items.
func (m *model) checklist(c *call, cs []*cases.Case, n int, out *prepareOutput) {
	left := n
	for _, g := range m.model.Checklist().For(cs) {
		out.Items += len(g.Items)
		if left == 0 {
			continue
		}
		pg := prepareGroup{Group: g.Name, Title: groupTitle(c.lang, g.Name)}
		for _, l := range g.Items[:min(left, len(g.Items))] {
			text, _ := l.Item.Text.In(c.lang)
			it := prepareItem{Text: text, More: max(0, len(l.From)-prepareItemCases)}
			for _, s := range l.From[:min(len(l.From), prepareItemCases)] {
				it.Cases = append(it.Cases, prepareFrom{ID: s.Case.ID, Status: s.Status, URL: m.site.URL(urls.Case(c.lang, s.Case.ID))})
			}
			pg.Items = append(pg.Items, it)
		}
		left -= len(pg.Items)
		out.Checklist = append(out.Checklist, pg)
	}
}

// prepareText writes the answer out as Markdown: the cases that apply to
// what was chosen, the checklist as boxes to tick, and the page's address.
func prepareText(c *call, chosen string, out *prepareOutput) string {
	var b strings.Builder
	if out.Total == 0 {
		b.WriteString(c.t("prepare.none", chosen) + "\n")
	} else {
		b.WriteString(c.t("prepare.head", l10n.Cases(c.lang, out.Total), chosen) + "\n")
		writeItems(&b, c, out.Cases[:min(prepareCases, len(out.Cases))])
		if more := len(out.Cases) - prepareCases; more > 0 {
			b.WriteString(c.t("prepare.more_cases", l10n.Number(more)) + "\n")
		}
		b.WriteString("\n" + c.t("prepare.checklist") + "\n")
		for _, g := range out.Checklist {
			b.WriteString("\n## " + g.Title + "\n\n")
			for _, it := range g.Items {
				from := make([]string, len(it.Cases))
				for i, s := range it.Cases {
					from[i] = s.ID
					if s.Status != "" {
						from[i] += " (" + statusWord(c.lang, s.Status) + ")"
					}
				}
				if it.More > 0 {
					// The site's words for a checklist line's cases left out.
					from = append(from, fmt.Sprintf(cases.Catalogue.Get(c.lang, "prepare.more_cases"), l10n.Number(it.More)))
				}
				fmt.Fprintf(&b, "- [ ] %s — %s\n", markup.MarkdownLine(it.Text), strings.Join(from, ", "))
			}
		}
	}
	b.WriteString("\n" + c.t("prepare.page", out.Page) + "\n")
	return b.String()
}

// describePicks writes the choice: components=ingress; ingress-nginx=1.11.2.
func describePicks(f *cases.Facet, parts []string, picks []productPick) string {
	var s []string
	if f != nil && len(parts) > 0 {
		s = append(s, f.Arg()+"="+strings.Join(parts, ","))
	}
	for _, p := range picks {
		if p.Version != "" {
			s = append(s, p.Product+"="+p.Version)
		} else {
			s = append(s, p.Product)
		}
	}
	return strings.Join(s, "; ")
}

// groupTitle and statusWord are the site's words for a checklist group and
// an action status (the catalogue's, outside its "mcp." part).
func groupTitle(lang, g string) string {
	switch g {
	case library.GroupOther, library.GroupLessons:
		return cases.Catalogue.Get(lang, "prepare.group."+g)
	}
	return cases.Catalogue.Get(lang, "action.kind."+g)
}

func statusWord(lang, st string) string {
	return strings.ToLower(cases.Catalogue.Get(lang, "action.status."+st))
}

// byVersion keeps the cases whose affected versions of the products
// filter's one product hold the version argument; all of them when there
// is none.
func (m *model) byVersion(c *call, cs []*cases.Case) ([]*cases.Case, error) {
	v := strings.TrimSpace(c.str(versionParam.name))
	if v == "" {
		return cs, nil
	}
	products := c.list(cases.Products.Arg())
	if len(products) != 1 {
		return nil, c.fail("err.version_product", strconv.Quote(cases.Products.Arg()))
	}
	if !cases.IsVersion(v) {
		return nil, c.fail("err.version", versionParam.name, echo(v))
	}
	var out []*cases.Case
	for _, x := range cs {
		for _, a := range x.Affected {
			if a.Product == products[0] && a.Matches(v) {
				out = append(out, x)
				break
			}
		}
	}
	return out, nil
}
