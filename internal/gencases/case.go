package gencases

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Case files are written compact (one line, like the library's hand-written
// cases) with a trailing newline, and must land between minSize and maxSize
// bytes, the range of the seed cases.
const (
	minSize = 8000
	maxSize = 11000
)

// zipfS is the exponent of the rank-frequency law used for organisations and
// for every controlled vocabulary.
const zipfS = 1.1

// The cases' dates run from firstDay to lastDay; updated_at falls in the
// month after, so no case is updated before it happened.
var (
	firstDay = time.Date(2014, 1, 1, 0, 0, 0, 0, time.UTC)
	lastDay  = time.Date(2026, 10, 31, 0, 0, 0, 0, time.UTC)
	updated  = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
)

// zipf draws ranks 0..n-1 with probability proportional to
// 1/(rank+1+offset)^s. An offset above zero flattens the head, which keeps
// the largest organisation from owning a fifth of the library.
type zipf []float64 // cumulative distribution

func newZipf(n int, s, offset float64) zipf {
	c := make(zipf, n)
	sum := 0.0
	for k := range c {
		sum += 1 / math.Pow(float64(k+1)+offset, s)
		c[k] = sum
	}
	for k := range c {
		c[k] /= sum
	}
	return c
}

func (z zipf) draw(r *rand.Rand) int {
	return min(sort.SearchFloat64s(z, r.Float64()), len(z)-1)
}

// drawN draws k distinct ranks, keeping the order drawn so that the first
// (most prominent) term is usually a common one.
func (z zipf) drawN(r *rand.Rand, k int) []int {
	k = min(k, len(z))
	out := make([]int, 0, k)
	for len(out) < k {
		v := z.draw(r)
		if !containsInt(out, v) {
			out = append(out, v)
		}
	}
	return out
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

var (
	zOrgs    = newZipf(len(orgs), zipfS, 4)
	zComps   = newZipf(len(components), zipfS, 0)
	zSyms    = newZipf(len(symptoms), zipfS, 0)
	zCauses  = newZipf(len(rootCauses), zipfS, 0)
	zContrib = newZipf(len(contributings), zipfS, 0)
	zDomains = newZipf(len(domains), zipfS, 0)
)

// org is a fictional organisation; sound is the final sound of its Korean
// reading (see finalSound).
type org struct {
	name, slug string
	sound      int8
}

// orgs is a fixed list of 300 names, the same for every seed so that a
// library's organisations are recognisable across sizes. It is drawn from
// the prefix × suffix grid by a fixed shuffle.
var orgs = func() []org {
	all := make([]org, 0, len(orgPrefixes)*len(orgSuffixes))
	for _, p := range orgPrefixes {
		for _, s := range orgSuffixes {
			name := p + " " + s.name
			all = append(all, org{name, strings.ToLower(p + "-" + s.name), s.sound})
		}
	}
	r := rand.New(rand.NewPCG(0x1c1de47, 300))
	r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	return all[:300]
}()

// skeleton is what other cases need to know about a case: who, when, and
// its controlled terms. It is cheap to compute, so a case that refers to an
// earlier one recomputes the earlier skeleton instead of keeping it around.
type skeleton struct {
	org                        int
	day                        int // days since firstDay
	rc                         int
	comps, syms, contrib, doms []int
	recurrence                 int // index of the earlier case, or -1
}

func caseRand(seed uint64, i int, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(i)<<2|stream))
}

// dayOf spreads n cases over the date range in index order, more of them in
// recent years (as public post-mortems are), so that a case's earlier
// indices are never later in time.
func dayOf(i, n int) int {
	span := lastDay.Sub(firstDay).Hours() / 24
	return int(span * math.Pow((float64(i)+0.5)/float64(n), 0.75))
}

// count draws how many terms a case gets, from lo to hi, with the weights
// given for each count.
func count(r *rand.Rand, lo int, weights ...int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	v := r.IntN(total)
	for k, w := range weights {
		if v < w {
			return lo + k
		}
		v -= w
	}
	return lo
}

// baseSkeleton is the skeleton before a recurrence copies its organisation
// and cause from the earlier case.
func baseSkeleton(seed uint64, n, i int) skeleton {
	r := caseRand(seed, i, 0)
	s := skeleton{org: zOrgs.draw(r), day: dayOf(i, n), rc: zCauses.draw(r), recurrence: -1}
	s.comps = zComps.drawN(r, count(r, 1, 3, 4, 2, 1))
	s.syms = zSyms.drawN(r, count(r, 1, 3, 4, 2, 1))
	s.contrib = zContrib.drawN(r, count(r, 0, 2, 4, 3, 1))
	s.doms = zDomains.drawN(r, count(r, 1, 4, 5, 1))
	if i > 0 && r.IntN(100) < 2 {
		if j := r.IntN(i); dayOf(j, n) < s.day {
			s.recurrence = j
		}
	}
	return s
}

// skeletonOf returns case i's final skeleton: a recurrence happens to the
// same organisation, for the same root cause, in the same main component.
func skeletonOf(seed uint64, n, i int) skeleton {
	s := baseSkeleton(seed, n, i)
	if s.recurrence >= 0 {
		p := skeletonOf(seed, n, s.recurrence)
		s.org, s.rc = p.org, p.rc
		if k := indexOf(s.comps, p.comps[0]); k > 0 {
			s.comps[0], s.comps[k] = s.comps[k], s.comps[0]
		} else if k < 0 {
			s.comps[0] = p.comps[0]
		}
	}
	return s
}

func indexOf(s []int, v int) int {
	for k, x := range s {
		if x == v {
			return k
		}
	}
	return -1
}

// CaseID is the ID of the i-th case (0-based) of a library of n cases:
// IL- and four digits while the library stays below 10,000 cases, six
// digits from there on, so that IDs of one library sort as numbers.
func CaseID(i, n int) string {
	if n < 10000 {
		return fmt.Sprintf("IL-%04d", i+1)
	}
	return fmt.Sprintf("IL-%06d", i+1)
}

// The JSON shape of a case, field for field as in content/cases/*.json.
type (
	textJSON struct {
		En string `json:"en"`
		Ko string `json:"ko"`
	}
	itemJSON struct {
		Text textJSON `json:"text"`
	}
	caseJSON struct {
		ID           string     `json:"id"`
		Org          string     `json:"org"`
		OrgSlug      string     `json:"org_slug"`
		Date         string     `json:"date"`
		DateKind     string     `json:"date_kind"`
		Title        textJSON   `json:"title"`
		Summary      textJSON   `json:"summary"`
		SymptomsText textJSON   `json:"symptoms_text"`
		Trigger      textJSON   `json:"trigger"`
		Detection    textJSON   `json:"detection"`
		Lessons      *textJSON  `json:"lessons"`
		Remediation  []itemJSON `json:"remediation"`
		ActionItems  []itemJSON `json:"action_items"`
		Impact       struct {
			Scope  any    `json:"scope"` // "unknown" or a text in both languages
			Users  any    `json:"users"`
			Region string `json:"region"`
		} `json:"impact"`
		ImpactLevel  string   `json:"impact_level"`
		Severity     string   `json:"severity"`
		Symptoms     []string `json:"symptoms"`
		Components   []string `json:"components"`
		RootCause    string   `json:"root_cause"`
		Contributing []string `json:"contributing"`
		Domain       []string `json:"domain"`
		Timeline     struct {
			DetectedAfter  *string `json:"detected_after"`
			MitigatedAfter *string `json:"mitigated_after"`
			ResolvedAfter  *string `json:"resolved_after"`
			StartedAt      *string `json:"started_at"`
			DetectedAt     *string `json:"detected_at"`
			MitigatedAt    *string `json:"mitigated_at"`
			ResolvedAt     *string `json:"resolved_at"`
		} `json:"timeline"`
		Sources      []sourceJSON `json:"sources"`
		Related      []string     `json:"related"`
		RecurrenceOf *string      `json:"recurrence_of"`
		Review       struct {
			WrittenBy  string  `json:"written_by"`
			ReviewedAt *string `json:"reviewed_at"`
			ReviewedBy *string `json:"reviewed_by"`
		} `json:"review"`
		Docs      []string `json:"docs"`
		UpdatedAt string   `json:"updated_at"`
		URL       string   `json:"url"`
	}
	sourceJSON struct {
		URL      string  `json:"url"`
		Kind     string  `json:"kind"`
		Archived *string `json:"archived"`
	}
)

// doc is a long text field being assembled: paragraphs of sentences, the
// same count in both languages.
type doc struct{ en, ko [][]string }

func (d *doc) add(s *slots, p pair, newPara bool) {
	if newPara || len(d.en) == 0 {
		d.en = append(d.en, nil)
		d.ko = append(d.ko, nil)
	}
	k := len(d.en) - 1
	var b strings.Builder
	fill(&b, p.en, s, false)
	d.en[k] = append(d.en[k], b.String())
	b.Reset()
	fill(&b, p.ko, s, true)
	d.ko[k] = append(d.ko[k], b.String())
}

// pop removes the last sentence, and its paragraph if that empties it.
func (d *doc) pop() {
	k := len(d.en) - 1
	d.en[k] = d.en[k][:len(d.en[k])-1]
	d.ko[k] = d.ko[k][:len(d.ko[k])-1]
	if len(d.en[k]) == 0 {
		d.en, d.ko = d.en[:k], d.ko[:k]
	}
}

func (d *doc) text() textJSON {
	join := func(ps [][]string) string {
		parts := make([]string, len(ps))
		for k, p := range ps {
			parts[k] = strings.Join(p, " ")
		}
		return strings.Join(parts, "\n\n")
	}
	return textJSON{join(d.en), join(d.ko)}
}

// one fills a single template pair into a text.
func one(s *slots, p pair) textJSON {
	var d doc
	d.add(s, p, true)
	return d.text()
}

func pick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

func clock(m int) word {
	m = ((m % 1440) + 1440) % 1440
	t := fmt.Sprintf("%02d:%02d", m/60, m%60)
	return w(t, t)
}

// durationJSON formats minutes the way cases write durations: 5m, 1h10m, 2h.
func durationJSON(m int) string {
	switch {
	case m < 60:
		return strconv.Itoa(m) + "m"
	case m%60 == 0:
		return strconv.Itoa(m/60) + "h"
	}
	return strconv.Itoa(m/60) + "h" + strconv.Itoa(m%60) + "m"
}

// durationWords writes minutes as prose in both languages.
func durationWords(m int) word {
	h, mm := m/60, m%60
	plural := func(v int, unit string) string {
		if v == 1 {
			return "1 " + unit
		}
		return strconv.Itoa(v) + " " + unit + "s"
	}
	switch {
	case h == 0:
		return w(plural(mm, "minute"), strconv.Itoa(mm)+"분")
	case mm == 0:
		return w(plural(h, "hour"), strconv.Itoa(h)+"시간")
	}
	return w(plural(h, "hour")+" "+plural(mm, "minute"), strconv.Itoa(h)+"시간 "+strconv.Itoa(mm)+"분")
}

var reviewers = []string{"Jiwoo Park", "Sam Okafor", "Minseo Kim", "Ana Ruiz", "Hyunwoo Lee", "Priya Nair"}

// padding is what the long fields are filled up with: a few general
// sentences, sentences full of names and numbers, and sentences of acts
// (actions.go), which carry most of the Korean's variety. The acts are
// listed several times, since each is filled afresh.
// allRemediations and allActionItems add the steps and follow-ups of acts
// to the written ones.
var (
	allRemediations = slices.Concat(remediations, actionRemediations, actionRemediations)
	allActionItems  = slices.Concat(actionItems, actionFollowUps, actionFollowUps)
)

var padding = slices.Concat(fillers[:10], details, actions, actions, actions, actions, actions, actions)

// genCase writes case i of an n-case library into buf.
func genCase(buf *bytes.Buffer, seed uint64, n, i int) error {
	sk := skeletonOf(seed, n, i)
	r := caseRand(seed, i, 1)
	o := orgs[sk.org]
	date := firstDay.AddDate(0, 0, sk.day)

	var c caseJSON
	c.ID = CaseID(i, n)
	c.Org, c.OrgSlug = o.name, o.slug
	c.Date = date.Format("2006-01-02")
	c.DateKind = "incident"
	c.URL = "https://benchlet.com/incidentlib/app/cases/" + c.ID

	// Timeline, in minutes from the start of the incident.
	start := 60*r.IntN(24) + r.IntN(60)
	detect := 1 + int(r.ExpFloat64()*10)
	resolve := detect + 10 + int(r.ExpFloat64()*90)
	if r.IntN(8) == 0 {
		resolve += 60 * (1 + r.IntN(30)) // a long one now and then
	}
	mitigate := detect + (resolve-detect)*2/3
	if r.IntN(10) >= 3 {
		v := durationJSON(detect)
		c.Timeline.DetectedAfter = &v
	}
	if r.IntN(10) >= 3 {
		v := durationJSON(resolve)
		c.Timeline.ResolvedAfter = &v
	}
	// Drawn from what is already drawn, so that the random stream, and
	// with it every later word of the case, stays as it was.
	if start%2 == 0 {
		v := durationJSON(mitigate)
		c.Timeline.MitigatedAfter = &v
	}
	// The moments agree with the durations, as check wants; a source
	// gives them now and then.
	if start%3 != 0 {
		at := func(after int) *string {
			v := date.Add(time.Duration(start+after) * time.Minute).Format("2006-01-02T15:04Z")
			return &v
		}
		c.Timeline.StartedAt = at(0)
		if c.Timeline.DetectedAfter != nil {
			c.Timeline.DetectedAt = at(detect)
		}
		if c.Timeline.MitigatedAfter != nil {
			c.Timeline.MitigatedAt = at(mitigate)
		}
		if c.Timeline.ResolvedAfter != nil {
			c.Timeline.ResolvedAt = at(resolve)
		}
	}
	c.ImpactLevel = impactLevels[(start+detect)%len(impactLevels)].id

	// Controlled terms.
	for _, k := range sk.syms {
		c.Symptoms = append(c.Symptoms, symptoms[k].id)
	}
	for _, k := range sk.comps {
		c.Components = append(c.Components, components[k].id)
	}
	c.RootCause = rootCauses[sk.rc].id
	c.Contributing = []string{}
	for _, k := range sk.contrib {
		c.Contributing = append(c.Contributing, contributings[k].id)
	}
	for _, k := range sk.doms {
		c.Domain = append(c.Domain, domains[k].id)
	}
	switch v := r.IntN(100); {
	// Few reports publish their own severity (2 of the library's 127
	// cases give one), and the impact level is every case's headline.
	case v < 90:
		c.Severity = "unknown"
	case v < 93:
		c.Severity = "sev1"
	case v < 96:
		c.Severity = "sev2"
	case v < 98:
		c.Severity = "sev3"
	default:
		c.Severity = "sev4"
	}

	// Slots shared by every sentence of the case; x, y, n and pct are drawn
	// afresh for each sentence by next.
	comp := components[sk.comps[0]]
	comp2 := comp
	if len(sk.comps) > 1 {
		comp2 = components[sk.comps[1]]
	}
	sym := symptoms[sk.syms[0]]
	region := pick(r, regions)
	rc := rootCauses[sk.rc]
	s := &slots{
		org:    word{o.name, o.name, o.sound},
		comp:   w(comp.noun, comp.ko),
		comp2:  w(comp2.noun, comp2.ko),
		sym:    w(sym.clauseEn, sym.clauseKo),
		sym2:   w(sym.clauseEn, sym.clauseKo),
		rc:     w(rc.shortEn, rc.shortKo),
		team:   pick(r, teams),
		t1:     clock(start),
		t2:     clock(start + detect),
		t3:     clock(start + mitigate),
		t4:     clock(start + resolve),
		date:   w(date.Format("2 January 2006"), fmt.Sprintf("%d년 %d월 %d일", date.Year(), int(date.Month()), date.Day())),
		region: region,
		dur:    durationWords(resolve),
	}
	next := func() *slots {
		s.x = pick(r, nouns)
		for s.y = pick(r, nouns); s.y == s.x; s.y = pick(r, nouns) {
		}
		v := strconv.Itoa(2 + r.IntN(39))
		s.n = w(v, v)
		p := strconv.Itoa(5 + 5*r.IntN(19))
		s.pct = w(p, p)
		s.lx, s.lx2, s.prod = drawLex(r), drawLex(r), product(r)
		s.host, s.pod, s.ns, s.bucket = host(r), pod(r), namespace(r), bucket(r, o)
		s.ver, s.ver2, s.ip, s.commit, s.err = version(r), version(r), ipAddress(r), commit(r), errorMessage(r)
		s.code = same(strconv.Itoa(pick(r, httpCodes)))
		drawAction(s, r)
		s.rnd = r
		return s
	}
	setSym2 := func(k int) {
		v := symptoms[sk.syms[k%len(sk.syms)]]
		s.sym2 = w(v.clauseEn, v.clauseKo)
	}

	c.Title = one(next(), pick(r, titles))

	var summary, symText, trigger, detection, lessonDoc doc
	summary.add(next(), pick(r, openings), true)
	summary.add(next(), pair{rc.triggerEn, rc.triggerKo}, false)
	setSym2(1)
	summary.add(next(), pick(r, spreads), true)
	summary.add(next(), pick(r, recoveries), false)

	symText.add(next(), pick(r, windows), true)
	for k := 1; k < len(sk.syms); k++ {
		setSym2(k)
		symText.add(next(), pick(r, symptomLines), k == 2)
	}
	trigger.add(next(), pair{rc.triggerEn, rc.triggerKo}, true)
	detection.add(next(), pick(r, detections), true)

	hasLessons := r.IntN(100) >= 15
	if hasLessons {
		for _, k := range sk.contrib {
			lessonDoc.add(next(), pair{contributings[k].lessonEn, contributings[k].lessonKo}, false)
		}
		lessonDoc.add(next(), pick(r, lessons), len(sk.contrib) > 1)
	}

	for _, k := range r.Perm(len(allRemediations))[:count(r, 1, 4, 4, 2, 1)] {
		c.Remediation = append(c.Remediation, itemJSON{one(next(), allRemediations[k])})
	}
	for _, k := range r.Perm(len(allActionItems))[:2+r.IntN(9)] {
		c.ActionItems = append(c.ActionItems, itemJSON{one(next(), allActionItems[k])})
	}

	// Impact, sources, links and review.
	if r.IntN(10) == 0 {
		c.Impact.Scope = "unknown"
	} else {
		c.Impact.Scope = one(s, pick(r, []pair{
			{"Requests served through the {comp} in {region}", "{region:의} {comp:을} 거치는 요청"},
			{"{Comp} and the services behind it", "{comp:과} 그 뒤의 서비스"},
			{"Logging in and using {org} products", "{org} 제품 로그인과 사용"},
			{"Every product that depends on the {comp} and the {comp2}", "{comp:과} {comp2:에} 기대는 모든 제품"},
		}))
	}
	switch v := r.IntN(100); {
	case v < 15:
		c.Impact.Users = "unknown"
	case v < 50:
		c.Impact.Users = one(s, pair{"some {org} customers", "{org} 고객 일부"})
	case v < 70:
		c.Impact.Users = one(s, pair{"all {org} customers in {region}", "{region:의} {org} 고객 전부"})
	case v < 85:
		p := strconv.Itoa(5 + 5*r.IntN(19))
		c.Impact.Users = one(s, pair{"about " + p + "% of {org} customers", "{org} 고객의 약 " + p + "%"})
	default:
		c.Impact.Users = one(s, pair{"customers using the {comp}", "{comp:을} 쓰는 고객"})
	}
	switch v := r.IntN(100); {
	case v < 25:
		c.Impact.Region = "unknown"
	case v < 40:
		c.Impact.Region = "global"
	default:
		c.Impact.Region = region.en
	}
	c.Sources = sources(r, o, comp, date)
	c.Related = related(r, seed, n, i, sk)
	if sk.recurrence >= 0 {
		id := CaseID(sk.recurrence, n)
		c.RecurrenceOf = &id
	}
	c.Review.WrittenBy = "session"
	if r.IntN(100) < 12 {
		at := updated.AddDate(0, 0, -1-r.IntN(60)).Format("2006-01-02")
		by := pick(r, reviewers)
		c.Review.ReviewedAt, c.Review.ReviewedBy = &at, &by
	}
	c.Docs = []string{}
	c.UpdatedAt = updated.Add(time.Duration(r.IntN(29*86400)) * time.Second).Format(time.RFC3339)

	// Pad the long fields with filler sentences, without repeating one,
	// until the file reaches a size drawn for this case. Sizes are counted
	// as sentences are added, so the case is usually encoded twice; the
	// loops after that only correct a rare overshoot or shortfall.
	target := 8200 + r.IntN(2400)
	long := []*doc{&summary, &symText, &symText}
	if hasLessons {
		long = append(long, &lessonDoc)
	}
	order := r.Perm(len(padding))
	var added []*doc
	encode := func() error {
		c.Summary, c.SymptomsText = summary.text(), symText.text()
		c.Trigger, c.Detection = trigger.text(), detection.text()
		c.Lessons = nil
		if hasLessons {
			l := lessonDoc.text()
			c.Lessons = &l
		}
		buf.Reset()
		enc := json.NewEncoder(buf)
		enc.SetEscapeHTML(false)
		return enc.Encode(&c)
	}
	addFiller := func() int {
		d := pick(r, long)
		k := len(d.en) - 1
		d.add(next(), padding[order[len(added)]], k < 0 || len(d.en[k]) >= 4)
		added = append(added, d)
		k = len(d.en) - 1
		grew := len(d.en[k][len(d.en[k])-1]) + len(d.ko[k][len(d.ko[k])-1]) + 2
		if len(d.en[k]) == 1 {
			grew += 6 // two "\n\n" escapes instead of two spaces
		}
		return grew
	}
	if err := encode(); err != nil {
		return err
	}
	for size := buf.Len(); size < target && len(added) < len(order); {
		size += addFiller()
	}
	if err := encode(); err != nil {
		return err
	}
	for buf.Len() > maxSize && len(added) > 0 {
		added[len(added)-1].pop()
		added = added[:len(added)-1]
		if err := encode(); err != nil {
			return err
		}
	}
	for buf.Len() < minSize && len(added) < len(order) {
		addFiller()
		if err := encode(); err != nil {
			return err
		}
	}
	if buf.Len() < minSize || buf.Len() > maxSize {
		return fmt.Errorf("case %s: could not reach a size between %d and %d bytes (got %d)", c.ID, minSize, maxSize, buf.Len())
	}
	return nil
}

// sources gives a case one to three public documents on the organisation's
// (reserved, never resolving) .example domain, most with an archived copy.
func sources(r *rand.Rand, o org, comp component, date time.Time) []sourceJSON {
	host := strings.ReplaceAll(o.slug, "-", "") + ".example"
	k := count(r, 1, 7, 2, 1)
	out := make([]sourceJSON, 0, k)
	for j := range k {
		var src sourceJSON
		switch v := r.IntN(100); {
		case v < 45:
			src.Kind = "blog"
			src.URL = fmt.Sprintf("https://engineering.%s/blog/%s/%s-incident-review", host, date.Format("2006/01"), comp.id)
		case v < 75:
			src.Kind = "official-status"
			src.URL = fmt.Sprintf("https://status.%s/incidents/%s", host, strconv.FormatUint(r.Uint64()>>24, 36))
		default:
			src.Kind = "postmortem"
			src.URL = fmt.Sprintf("https://www.%s/postmortems/%s-%s", host, date.Format("2006-01-02"), comp.id)
		}
		if j > 0 {
			src.URL += "-" + strconv.Itoa(j+1)
		}
		// Most sources have an archived copy; of the others the editor
		// says none is known ("none"), as a library that checks clean
		// does: null would be a warning on every fifth source.
		a := "none"
		if r.IntN(100) < 80 {
			ts := updated.Add(-time.Duration(1+r.IntN(200*86400)) * time.Second).Format("20060102150405")
			a = "https://web.archive.org/web/" + ts + "/" + src.URL
		}
		src.Archived = &a
		out = append(out, src)
	}
	return out
}

// related links about one case in eight to one or two earlier cases,
// preferring ones that share the root cause or main component, the way an
// editor would link them.
func related(r *rand.Rand, seed uint64, n, i int, sk skeleton) []string {
	out := []string{}
	if i == 0 || r.IntN(8) != 0 {
		return out
	}
	lo := max(0, i-3000)
	var picked []int
	want := count(r, 1, 2, 1)
	for range want {
		var j int
		for try := 0; try < 6; try++ {
			j = lo + r.IntN(i-lo)
			o := baseSkeleton(seed, n, j)
			if o.rc == sk.rc || indexOf(o.comps, sk.comps[0]) >= 0 {
				break
			}
		}
		if j != sk.recurrence && !containsInt(picked, j) {
			picked = append(picked, j)
		}
	}
	sort.Ints(picked)
	for _, j := range picked {
		out = append(out, CaseID(j, n))
	}
	return out
}
