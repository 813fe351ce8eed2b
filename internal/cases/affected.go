package cases

import (
	"fmt"
	"slices"
	"strings"

	"incidentlib/internal/jsonpos"
)

// ActionItem is one thing an organisation planned or did after an incident:
// its text, what it is for (one of ActionKinds, "" when the case does not
// say) and how far it got (one of ActionStatuses, "" when the case does
// not say, which pages show as unknown).
type ActionItem struct {
	Text   Bilingual
	Kind   string
	Status string
}

// Affected names a product a failure lives in and the versions in which it
// can occur, after OSV's ranges: from Introduced ("0" or "" for the start)
// up to Fixed (excluded) or LastAffected (included), or one of Versions.
type Affected struct {
	Product      string
	Introduced   string
	Fixed        string
	LastAffected string
	Versions     []string
}

// HasRange reports whether a names a range rather than only a list.
func (a Affected) HasRange() bool {
	return a.Introduced != "" || a.Fixed != "" || a.LastAffected != ""
}

// Matches reports whether version is one in which the failure can occur:
// one of Versions, or inside the range. Versions compare as CompareVersions
// says, so v1.11 and 1.11.0 are the same version.
func (a Affected) Matches(version string) bool {
	if !IsVersion(version) {
		return false
	}
	for _, v := range a.Versions {
		if CompareVersions(v, version) == 0 {
			return true
		}
	}
	if !a.HasRange() {
		return false
	}
	if a.Introduced != "" && a.Introduced != "0" && CompareVersions(version, a.Introduced) < 0 {
		return false
	}
	if a.Fixed != "" && CompareVersions(version, a.Fixed) >= 0 {
		return false
	}
	if a.LastAffected != "" && CompareVersions(version, a.LastAffected) > 0 {
		return false
	}
	return true
}

// IsVersion reports whether s is written as a version (versionPattern).
func IsVersion(s string) bool { return matcher(versionPattern)(s) }

// CompareVersions orders two versions as sources write them, and returns
// -1, 0 or 1. A leading v is ignored; the dotted numbers compare one by one
// as numbers, a missing one counting as 0 (1.27 is 1.27.0); a pre-release
// suffix (-beta.1) comes before the release it precedes and compares by its
// dot-separated parts as semantic versioning does (numbers below words,
// numbers as numbers); build metadata after + is ignored.
func CompareVersions(a, b string) int {
	an, apre := splitVersion(a)
	bn, bpre := splitVersion(b)
	for i := 0; i < max(len(an), len(bn)); i++ {
		x, y := part(an, i), part(bn, i)
		if c := compareDigits(x, y); c != 0 {
			return c
		}
	}
	switch {
	case apre == bpre:
		return 0
	case apre == "":
		return 1
	case bpre == "":
		return -1
	}
	ap, bp := strings.Split(apre, "."), strings.Split(bpre, ".")
	for i := 0; i < min(len(ap), len(bp)); i++ {
		if c := comparePre(ap[i], bp[i]); c != 0 {
			return c
		}
	}
	return cmpInt(len(ap), len(bp))
}

// splitVersion returns a version's numbers and its pre-release suffix.
func splitVersion(s string) ([]string, string) {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "v"), "V")
	if i := strings.IndexByte(s, '+'); i >= 0 {
		s = s[:i]
	}
	pre := ""
	if i := strings.IndexByte(s, '-'); i >= 0 {
		s, pre = s[:i], s[i+1:]
	}
	return strings.Split(s, "."), pre
}

func part(p []string, i int) string {
	if i < len(p) {
		return p[i]
	}
	return "0"
}

// compareDigits compares two strings of digits of any length as numbers.
func compareDigits(x, y string) int {
	x, y = strings.TrimLeft(x, "0"), strings.TrimLeft(y, "0")
	if len(x) != len(y) {
		return cmpInt(len(x), len(y))
	}
	return strings.Compare(x, y)
}

func isDigits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

func comparePre(x, y string) int {
	xd, yd := isDigits(x), isDigits(y)
	switch {
	case xd && yd:
		return compareDigits(x, y)
	case xd:
		return -1
	case yd:
		return 1
	}
	return strings.Compare(x, y)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// productsField is vocab.json's list of products, which cases name in
// affected[].product.
const productsField = "products"

// Product is a product cases may name as affected: its slug, its name in
// each language and, optionally, its home page.
type Product struct {
	ID    string
	Label Bilingual
	URL   string
}

// Product looks a product up by its slug.
func (v *Vocab) Product(id string) (Product, bool) {
	i, ok := v.index[productsField][id]
	if !ok {
		return Product{}, false
	}
	return v.Products[i], true
}

func convertProducts(v *jsonpos.Value, p *parsed, voc *Vocab, errorf func(line, col int, field, format string, args ...any)) {
	seen := map[string]bool{}
	for i, it := range getList(v, productsField) {
		if it.Kind != jsonpos.Object {
			continue
		}
		pr := Product{ID: getStr(it, "id"), Label: Bilingual{En: getStr(it, "en"), Ko: getStr(it, "ko")}, URL: getStr(it, "url")}
		if seen[pr.ID] {
			line, col := p.pos(it)
			errorf(line, col, fmt.Sprintf("%s[%d].id", productsField, i), "duplicate product %q", pr.ID)
			continue
		}
		seen[pr.ID] = true
		voc.Products = append(voc.Products, pr)
	}
}

// readAffected reads a case's action items and affected products, which
// the schema has judged.
func readAffected(v *jsonpos.Value, c *Case) {
	for _, it := range getList(v, "action_items") {
		c.ActionItems = append(c.ActionItems, ActionItem{Text: getText(it, "text"), Kind: getStr(it, "kind"), Status: getStr(it, "status")})
	}
	for _, it := range getList(v, "affected") {
		c.Affected = append(c.Affected, Affected{
			Product:      getStr(it, "product"),
			Introduced:   getStr(it, "introduced"),
			Fixed:        getStr(it, "fixed"),
			LastAffected: getStr(it, "last_affected"),
			Versions:     getStrings(it, "versions"),
		})
		if p := getStr(it, "product"); p != "" && !slices.Contains(c.Products, p) {
			c.Products = append(c.Products, p)
		}
	}
}

// checkAffected reports what the schema cannot say about affected: a
// product missing from vocab.json's products, a range that ends before it
// starts, a range with both ends, and an entry that names no version.
func checkAffected(v *jsonpos.Value, c *Case, voc *Vocab, errorAt errorAtFunc) {
	items := getList(v, "affected")
	for i, it := range items {
		if i >= len(c.Affected) || it.Kind != jsonpos.Object {
			continue
		}
		a, at := c.Affected[i], fmt.Sprintf("affected[%d]", i)
		if p := it.Get("product"); p != nil && p.Kind == jsonpos.String && isSlug(p.Str) && !voc.broken {
			if _, ok := voc.Product(p.Str); !ok {
				errorAt(p, at+".product", "unknown product %q%s", p.Str, productHint(voc, p.Str))
			}
		}
		valid := func(s string) bool { return s == "" || IsVersion(s) }
		if !valid(a.Introduced) || !valid(a.Fixed) || !valid(a.LastAffected) {
			continue // the schema said so
		}
		switch {
		case !a.HasRange() && len(a.Versions) == 0:
			errorAt(it, at, "names no version: give introduced, fixed, last_affected or versions, or leave the product out")
		case a.Fixed != "" && a.LastAffected != "":
			errorAt(it.Get("last_affected"), at+".last_affected", "a range ends either at fixed (the first version without the failure) or at last_affected (the last one with it), not both")
		case a.Fixed != "" && a.Introduced != "" && a.Introduced != "0" && CompareVersions(a.Introduced, a.Fixed) >= 0:
			errorAt(it.Get("fixed"), at+".fixed", "%q is not after introduced %q: the range holds no version", a.Fixed, a.Introduced)
		case a.LastAffected != "" && a.Introduced != "" && a.Introduced != "0" && CompareVersions(a.Introduced, a.LastAffected) > 0:
			errorAt(it.Get("last_affected"), at+".last_affected", "%q comes before introduced %q: the range holds no version", a.LastAffected, a.Introduced)
		}
	}
}

// productHint says which product was meant, as termHint does for terms.
func productHint(voc *Vocab, s string) string {
	if voc.suggest != nil {
		if h := voc.suggest[productsField].didYouMean(s); h != "" {
			return h
		}
	}
	if len(voc.Products) == 0 {
		return ": vocab.json has no products; add it there"
	}
	return ": add it to vocab.json's products"
}
