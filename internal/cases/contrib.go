package cases

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

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
	if h := DidYouMean(s, ids); h != "" {
		return h
	}
	for _, other := range VocabFields {
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

// closeID suggests the case id meant by a mistyped one: an id one
// keystroke away (a digit wrong, missing or extra, or two neighbours
// swapped), or none. Ids are alike by design, so the general "did you mean"
// would offer an unrelated case for any id of the same shape.
func closeID(s, self string, ids []string) string {
	best := ""
	for _, id := range ids {
		if id == self || id == s {
			continue
		}
		if EditDistance(s, id) <= 1 || swapped(s, id) {
			if best == "" || id < best {
				best = id
			}
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean " + strconv.Quote(best) + "?)"
}

// swapped reports whether b is a with two neighbouring bytes swapped.
func swapped(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
}

// today is the date a date in the future is judged against; tests set it.
var today = func() time.Time { return time.Now().UTC() }

// checkFutureDates warns about a date of a case after today: the incident
// date, the review date and the time of the last change. A day of grace
// covers time zones ahead of UTC.
func checkFutureDates(p *parsed, c *Case, list *diag.List) {
	now := today()
	limit := now.AddDate(0, 0, 1)
	warn := func(v *jsonpos.Value, field, what string) {
		line, col := p.pos(v)
		list.Warnf(p.file, line, col, field, "%s %s is in the future (today is %s): %s", what, strconv.Quote(v.Str), now.Format("2006-01-02"), futureFix)
	}
	if v := p.v.Get("date"); v != nil && v.Kind == jsonpos.String && c.Date.Known() {
		// A partial date is in the future only when its first day is.
		d := c.Date
		first := time.Date(d.Year, time.Month(max(d.Month, 1)), max(d.Day, 1), 0, 0, 0, 0, time.UTC)
		if first.After(limit) {
			warn(v, "date", "the date")
		}
	}
	if r := getObj(p.v, "review").Get("reviewed_at"); r != nil && r.Kind == jsonpos.String {
		if t, err := time.Parse("2006-01-02", r.Str); err == nil && t.After(limit) {
			warn(r, "review.reviewed_at", "the review date")
		}
	}
	if u := p.v.Get("updated_at"); u != nil && u.Kind == jsonpos.String {
		if t, err := time.Parse(time.RFC3339, u.Str); err == nil && t.After(limit) {
			warn(u, "updated_at", "the time of the last change")
		}
	}
}

const futureFix = "a mistyped year? A case tells of something that happened, so its dates are past"

// orgSlugPos returns the position of a case's org_slug, read again from
// its file: the model keeps no positions, and this is asked for once per
// organisation with a problem.
func orgSlugPos(c *Case) (int, int) {
	raw, err := c.ReadRaw()
	if err != nil {
		return 0, 0
	}
	doc := jsonpos.Parse(string(raw))
	if doc.Root == nil {
		return 0, 0
	}
	if v := doc.Root.Get("org_slug"); v != nil {
		return doc.Pos(v.Off)
	}
	return 0, 0
}

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
