// Package related owns the "related cases" of the library: for every case, a
// short list of other cases with the reason each one is related. The list is
// computed once per build and shared by both languages and by the static API;
// words are not this package's business, it returns term ids and the caller
// renders labels.
//
// # The rule
//
// Explicit links come first: a case's related list and its recurrence_of,
// read in both directions, so that when A names B, B also lists A. Every
// explicit link is kept, even beyond Options.Max, because an editor wrote it
// down and nothing written in the input is silently dropped.
//
// The remaining places, up to Options.Max links per case, are computed from
// the controlled terms the two cases share: root cause, components,
// contributing factors and symptoms. A shared term is worth
//
//	facet weight × ln(N / df)
//
// where N is the number of cases and df the number of cases carrying the
// term, so a component that three cases have says much more than a symptom
// that half the library has. A pair's score is the sum over its shared terms.
// Terms "" and "unknown" are never shared: two cases whose cause nobody knows
// are not alike for that reason.
//
// A root cause and where it struck are terms of their own too: the cause
// in each component ("software bug in the Ingress controller") and in each
// domain ("dependency failure on AWS", "misconfiguration in networking"),
// each weighed at half, by its own rarity. The seed pages head their lists
// with that relation ("same root cause · shared Ingress controller"), and
// in a library of a hundred cases and more a common cause and a common
// component or domain each say little (high df), while the cases that have
// both are few; counted apart, the two could not tell those few from the
// many cases that share one of them and a symptom. A domain is no shared
// term on its own: nearly every case is "kubernetes", and a third "aws".
// The reason names these terms as "same root cause" and the component; a
// shared domain is not named.
//
// The narratives count too. Controlled terms name kinds of things ("ingress
// controller", "operator error"); two cases can share a mechanism that no
// term names, such as every node that runs the ingress pods being taken out
// of service, and then their stories use the same rare words ("cordoned",
// "node pool", "ingress controller pods"). The caller hands each case's most
// distinctive words and phrases in Item.Words, and a shared one is worth
// facet weight × ln(N / df) like a term: one shared word is chance, several
// are a mechanism. Their sum is capped at the weight of a component only the
// two cases have (ln(N / 2)): words corroborate a mechanism, they do not
// make one. Without the cap two stories that tell the same kind of event
// in the same house style, in two languages, shared a dozen words and
// outranked every case that shares the failing component and the cause;
// with it, a few rare shared words reach the cap and more add nothing.
// Reason.Words lists the shared ones so that the caller can say in words
// what the stories share.
//
// # Symmetry with a hard bound
//
// Relations are symmetric: if B is in A's list, A is in B's, with the same
// reason and score. Picking each case's own top Max and then adding the
// reverse links would break the bound (a popular case would collect dozens of
// back-links), so the computed links are chosen as a greedy maximum-weight
// b-matching instead: all candidate pairs are sorted best first, and a pair is
// accepted when both of its cases still have a free place. Every accepted pair
// gives both cases a link, so symmetry and the bound hold by construction. A
// case can end with fewer than Max computed links when all its candidates are
// already full of stronger links; that is the price of having both properties.
//
// # Cost
//
// Candidates come from an inverted index of cases by term, never from
// comparing every pair. A term carried by at most Options.CommonDF cases is
// "rare": every case sharing it becomes a candidate, which costs at most
// CommonDF (for narrative words WordsDF) per term a case carries. A term
// carried by more is "common":
// walking its posting list from each of its cases would cost df², so it does
// not propose candidates wholesale. It adds its weight to every candidate
// found through rarer terms, and it proposes only the Options.Window cases on
// each side of the case in its posting list, which is sorted by date: the
// cases nearest in time, so that a case with only common terms still gets
// neighbours. Each case keeps its best 3 × Max candidates for the matching,
// which sorts those pairs once. The work is therefore bounded by a constant
// per term occurrence plus a sort of at most 3 × Max × N pairs: it grows with
// the number of cases, not with its square. In a library where no term is
// carried by more than CommonDF cases (any library of up to CommonDF cases),
// every pair sharing a term is considered.
//
// # Groups
//
// A page shows links under one heading per kind of link and answer to "same
// root cause?" ("same root cause · shared Ingress controller"); package site
// groups a case's list that way (site.RelGroup), from the reasons here.
//
// # Determinism
//
// Scores are kept in fixed point (millionths) while computing, so a sum does
// not depend on the order it was added up in and A→B scores exactly what B→A
// does. Cases are processed in a canonical order (newest date first, then
// ID), so the result does not depend on the order of the input slice either.
// Ties are broken by score, then newer date, then ID.
package related

import "slices"

// Item is what the computation needs from one case. The caller adapts its
// case model to this shape; term values are the vocabulary ids.
type Item struct {
	ID           string
	Date         string // YYYY-MM-DD; compared as text, so it must be zero-padded
	RootCause    string
	Components   []string
	Contributing []string
	Symptoms     []string
	// Domains are the case's domains ("aws", "networking"): not shared
	// terms of their own (most cases are "kubernetes"), only the place a
	// root cause struck (see the package doc).
	Domains []string
	// Words are the distinctive words and phrases of the case's narrative
	// (see the package doc), most distinctive first. They are opaque here:
	// the caller chooses them and turns shared ones back into text.
	Words        []string
	Related      []string // explicit links by case ID
	RecurrenceOf string   // ID of the case this one is a recurrence of, or ""
}

// Kind says why a link exists. Its numeric order is the order links are
// listed in.
type Kind uint8

const (
	// RecurrenceOf: this case is a recurrence of the linked one.
	RecurrenceOf Kind = iota + 1
	// Recurred: the linked case is a recurrence of this one (the other side of
	// RecurrenceOf).
	Recurred
	// Explicit: one of the two cases names the other in its related list.
	Explicit
	// Computed: chosen from the shared terms.
	Computed
)

var kindNames = [...]string{"", "recurrence_of", "recurred", "explicit", "computed"}

// String returns the kind as the API writes it ("recurrence_of", "recurred",
// "explicit", "computed").
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// MarshalText lets the API write a Kind as its name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Reason is what two cases have in common. Term lists hold vocabulary ids in
// the order the case that owns the list gives them, so two links of one case
// with the same shared terms have equal lists.
type Reason struct {
	SameRootCause bool
	Components    []string
	Contributing  []string
	Symptoms      []string
	// Words are the narrative words the two cases share, in the order of
	// the list's case (most distinctive first).
	Words []string
}

// equal reports whether two reasons name the same shared terms. Shared
// words are not compared: they say more about one pair than a heading over
// several can, so a group is formed by the controlled terms alone.
func (r Reason) equal(o Reason) bool {
	return r.SameRootCause == o.SameRootCause &&
		slices.Equal(r.Components, o.Components) &&
		slices.Equal(r.Contributing, o.Contributing) &&
		slices.Equal(r.Symptoms, o.Symptoms)
}

// Link is one related case as seen from the case whose list it is in. Reason
// and Score are filled for explicit links too (a Score of 0 means the editor
// linked cases that share no term).
type Link struct {
	ID   string
	Kind Kind
	Reason
	Score float64
}

// Options tunes the computation. A zero field takes its default.
type Options struct {
	// Max is the number of links per case (default 10). Explicit links count
	// against it but are never dropped.
	Max int
	// CommonDF is the document frequency above which a term no longer finds
	// candidates by itself (default 256).
	CommonDF int
	// Window is how many cases on each side, nearest by date, a common term
	// proposes as candidates (default 8).
	Window int
	// WordsDF is the document frequency above which a narrative word no
	// longer finds candidates by itself (default 32). It is lower than
	// CommonDF because a case has several times more words than terms.
	WordsDF int
}

// Default values of Options. Max matches what a case page shows: six in a
// library of 57 cases, ten since it passed a hundred, where most cases have
// more than six close neighbours and a pair an engineer judged related was
// often the seventh to tenth of one side (TestJudgedPairs in
// internal/library); a bound of eight still lost some of them to the
// stronger links of their partners. CommonDF
// keeps every term of a library of a few hundred cases exact while bounding
// the work per term; Window gives a case with only common terms as many
// candidates as the matching looks at.
const (
	defaultMax      = 10
	defaultCommonDF = 256
	defaultWindow   = 8
	defaultWordsDF  = 32
)

func (o Options) withDefaults() Options {
	if o.Max <= 0 {
		o.Max = defaultMax
	}
	if o.CommonDF <= 0 {
		o.CommonDF = defaultCommonDF
	}
	if o.Window <= 0 {
		o.Window = defaultWindow
	}
	if o.WordsDF <= 0 {
		o.WordsDF = defaultWordsDF
	}
	return o
}

// Compute returns, for every item, its related links: explicit ones first
// (RecurrenceOf, Recurred, Explicit), then computed ones, each group best
// first. The result is aligned with items: result[i] belongs to items[i].
//
// IDs are expected to be unique (the check stage enforces it); references to
// unknown IDs and to the case itself are ignored.
func Compute(items []Item, opt Options) [][]Link {
	opt = opt.withDefaults()
	ix := buildIndex(items, opt)
	exp := ix.explicit(items)
	top := ix.candidates(exp, opt)
	comp := ix.match(top, exp, opt.Max)
	return ix.links(exp, comp)
}
