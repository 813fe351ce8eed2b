package cases

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"incidentlib/internal/diag"
	"incidentlib/internal/jsonpos"
)

// The checks in this file answer a contributor's mistakes with the fix: the
// term meant, the facet a term belongs to, the id that was mistyped.

// listTermsUpTo is how many valid terms a message lists when the unknown
// one is close to none of them: a facet of that size is read at a glance.
const listTermsUpTo = 12

// termHint is what follows `unknown term "x"` in a message: the term meant
// when s differs from one in case only ("SEV1" for "sev1") or by a typo;
// else the facet s is a term of ("ingress" is a components term, not a
// symptom); else the valid terms, when there are few; else nothing.
func termHint(voc *Vocab, field, s string) string {
	var ids []string
	for _, t := range voc.Terms(field) {
		if strings.EqualFold(t.ID, s) {
			return " (did you mean " + strconv.Quote(t.ID) + "?)"
		}
		ids = append(ids, t.ID)
	}
	if h := voc.suggest[field].didYouMean(s); h != "" {
		return h
	}
	for _, f := range ControlledFacets() {
		other := f.Field
		if other == field {
			continue
		}
		if _, ok := voc.Term(other, strings.ToLower(s)); ok {
			return fmt.Sprintf(": %q is a %s term, not a %s one", strings.ToLower(s), other, field)
		}
	}
	if len(ids) > 0 && len(ids) <= listTermsUpTo {
		return " (the " + field + " terms are " + strings.Join(quoteAll(ids), ", ") + ")"
	}
	return ""
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

// closeID suggests the case id meant by a mistyped one: the first, in
// sorted order, of the names one keystroke away (a character wrong, missing
// or extra, or two neighbours swapped) other than self, or none. Ids are
// alike by design, so the general "did you mean" would offer an unrelated
// case for any id of the same shape. The names are looked up, never
// scanned, so a check with many unknown ids stays linear.
func (s *suggester) closeID(miss, self string) string {
	if s == nil || utf8.RuneCountInString(miss) > maxSuggestLen {
		return ""
	}
	best := ""
	s.neighbours(miss, func(n string) {
		if n != self && n != miss && s.set[n] && (best == "" || n < best) {
			best = n
		}
	})
	if best == "" {
		return ""
	}
	return " (did you mean " + strconv.Quote(best) + "?)"
}

// checkFutureDates warns about a time of the last change after today (the
// dates of the incident and of the review are checked with the calendar in
// checkCaseLimits).
func checkFutureDates(p *parsed, c *Case, list *diag.List) {
	u := p.v.Get("updated_at")
	if u == nil || u.Kind != jsonpos.String || c.UpdatedAt.IsZero() {
		return
	}
	t := c.UpdatedAt.UTC()
	if d, now := (Date{Year: t.Year(), Month: t.Month(), Day: t.Day()}), today(); now.Before(d) {
		line, col := p.pos(u)
		list.Warnf(p.file, line, col, "updated_at", "%q is in the future (today is %s in the latest time zone): %s", u.Str, now, futureFix)
	}
}

const futureFix = "a mistyped year? A case tells of something that happened, so its dates are past"

// orgFix is the end of the warning about an organisation missing from
// vocab.json's orgs: the slug meant, or the entry to add.
func orgFix(voc *Vocab, c *Case) string {
	ids := make([]string, len(voc.Orgs))
	for i, o := range voc.Orgs {
		ids[i] = o.ID
	}
	sort.Strings(ids)
	if h := DidYouMean(c.OrgSlug, ids); h != "" {
		return h
	}
	return fmt.Sprintf(`: add {"id": %q, "en": %q, "ko": "…"} to vocab.json's orgs, with its name as Korean engineers spell it`, c.OrgSlug, c.Org)
}
