package cases

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"incidentlib/internal/diag"
	"incidentlib/internal/jsonpos"
	"incidentlib/internal/urls"
)

// Schema describes one JSON value. The same descriptions validate the files
// as they are loaded and are published as JSON Schema (schema/case.json), so
// that the loader and the published schema cannot disagree.
type Schema struct {
	Types       []jsonpos.Kind // allowed kinds; Number means an integer here
	Props       []Prop         // for objects, in the order of the format
	Items       *Schema        // for arrays
	Pattern     string         // for strings
	Enum        []string       // for strings
	MinLen      int            // for strings
	MinProps    int            // for objects: the fewest members
	MaxLen      int            // for strings, when not 0: the most characters
	Min, Max    int            // for numbers, when Max > 0: the allowed range
	Description string
	Optional    bool // for members: the key may be absent
	Empty       bool // for strings with a Pattern: "" is allowed too, and turns a setting off
	match       func(string) bool
}

// Prop is one member of an object schema.
type Prop struct {
	Name string
	*Schema
}

func str(desc string) *Schema {
	return &Schema{Types: []jsonpos.Kind{jsonpos.String}, Description: desc}
}

func pattern(desc, re string) *Schema {
	s := str(desc)
	s.Pattern = re
	s.match = matcher(re)
	if re == slugPattern {
		s.MaxLen = maxSlugLen // a slug becomes a folder name
	}
	return s
}

func nullable(s *Schema) *Schema {
	c := *s
	c.Types = append([]jsonpos.Kind{jsonpos.Null}, s.Types...)
	return &c
}

func optional(s *Schema) *Schema {
	c := *s
	c.Optional = true
	return &c
}

// withDoc is s described for one member that shares its form.
func withDoc(s *Schema, desc string) *Schema {
	c := *s
	c.Description = desc
	return &c
}

func object(desc string, props ...Prop) *Schema {
	return &Schema{Types: []jsonpos.Kind{jsonpos.Object}, Props: props, Description: desc}
}

func array(desc string, items *Schema) *Schema {
	return &Schema{Types: []jsonpos.Kind{jsonpos.Array}, Items: items, Description: desc}
}

// text is a text in both languages. Either language may be left out, which
// is the same missing translation as an empty string (checkTranslations
// warns about both alike), but not both.
func text(desc string) *Schema {
	s := object(desc+" English and Korean; an empty string, or a language left out, marks a missing translation.",
		Prop{"en", optional(str("English text; paragraphs are separated by a blank line and may use inline Markdown. Left out, it is a missing translation, as when empty."))},
		Prop{"ko", optional(str("Korean text; paragraphs are separated by a blank line and may use inline Markdown. Left out, it is a missing translation, as when empty."))})
	s.MinProps = 1
	return s
}

// textOrString is a text in both languages, or one plain string, which is
// read as English with no Korean side (the seed cases' impact fields).
func textOrString(desc string) *Schema {
	s := text(desc + " A plain string is read as English only.")
	s.Types = []jsonpos.Kind{jsonpos.String, jsonpos.Object}
	return s
}

// Patterns shared by the schema and the checks.
const (
	idPattern       = `^[A-Z]{2}-[0-9]{4,6}$`
	slugPattern     = `^[a-z0-9]+(-[a-z0-9]+)*$`
	datePattern     = `^[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?$`
	dayPattern      = `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
	durationPattern = `^([0-9]+d)?([0-9]+h)?([0-9]+m)?$`
	httpPattern     = `^https?://[^\s]+$`
	// The URLs of site.json are written into every page, and some of them
	// into places html/template does not see (the 404 pages' links, the
	// headers file, robots.txt, Markdown and llms.txt), so they are held to
	// the shape of a URL: a scheme, a host of letters, digits, dots and
	// hyphens (or an IPv6 address in brackets) with an optional port, and
	// a path of the characters a URL path needs, never a quote, an angle
	// bracket, a backslash, a space or a control character. They are also
	// escaped wherever they are written; maxSettingURLLen keeps any of them
	// from multiplying the size of the output.
	baseURLPattern = `^https?://` + urlHost + `/(` + urlPathChar + `*/)?$`
	// An empty string turns a setting off; otherwise these are a URL with
	// an optional path, query and fragment, and a URL that a path is
	// appended to.
	optionalHTTPPattern = `^$|^https?://` + urlHost + `([/?#]` + urlRestChar + `*)?$`
	editURLPattern      = `^$|^https?://` + urlHost + `/(` + urlPathChar + `*/)?$`
	settingHTTPPattern  = `^https?://` + urlHost + `([/?#]` + urlRestChar + `*)?$`
	urlHost             = `([A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?`
	urlPathChar         = `[A-Za-z0-9._~%!$&*+,;=:@/-]`     // no parentheses: a base URL ends Markdown links in llms.txt
	urlRestChar         = `[A-Za-z0-9._~%!$&()*+,;=:@/?#-]` // path, query and fragment
	// A source's archived copy, or "none" when no copy is known.
	archivedPattern = `^none$|^https?://[^\s]+$`
	// A moment of an incident as its source gives it: to the minute, with
	// its zone, or with none when the source names none.
	momentPattern = `^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(Z|[+-][0-9]{2}:[0-9]{2})?$`
	// A product version as sources write it: 1.11.2, v1.27, 2024.08.1,
	// v20240202, 3.0.0-beta.1; "0" stands for every version from the start.
	versionPattern  = `^v?[0-9]+(\.[0-9]+)*([-+][0-9A-Za-z.-]+)?$`
	dateTimePattern = `^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$`
)

// sourceKinds are the kinds of source a case may cite.
var sourceKinds = []string{"postmortem", "blog", "official-status", "issue", "talk", "news", "other"}

// ActionKinds are what an action item may be for, in the order checklists
// group them.
var ActionKinds = []string{"prevent", "detect", "mitigate", "process"}

// ActionStatuses are how far an action item got.
var ActionStatuses = []string{"done", "planned", "proposed", "unknown"}

// dateKinds say what a case's date is the date of.
var dateKinds = []string{"incident", "published"}

var (
	termList = func(desc string) *Schema { return array(desc, pattern("A term id of the vocabulary.", slugPattern)) }
	item     = object("One step.", Prop{"text", text("What was done.")})
	// An action item may say what it is for and how far it got, as its
	// source says; topic checklists and the prepare page group by both.
	actionItem = object("One action item.",
		Prop{"text", text("What was planned or done.")},
		Prop{"kind", optional(enum(str("What the item is for: prevent (the failure happening again), detect (it sooner), mitigate (its effect), or process (how people work)."), ActionKinds))},
		Prop{"status", optional(enum(str("How far the item got, as the source says: done, planned (committed to), proposed (suggested or considered), or unknown when the source does not say."), ActionStatuses))})
	// affected names a product and the versions in which the failure can
	// occur, after OSV's ranges: introduced (the first affected version,
	// "0" for every version before fixed), then fixed (the first version
	// without it) or last_affected (the last one with it), or a list of
	// versions. Only where the source names them.
	affected = object("A product the failure lives in and the versions it can occur in, only where the source names them.",
		Prop{"product", pattern("The product's slug: kubernetes, ingress-nginx, traefik, calico, coredns, eks-ami, a Helm chart's name.", slugPattern)},
		Prop{"introduced", optional(pattern("The first version in which the failure can occur, or \"0\" for every version before fixed or last_affected.", versionPattern))},
		Prop{"fixed", optional(pattern("The first version in which it no longer occurs.", versionPattern))},
		Prop{"last_affected", optional(pattern("The last version in which it occurs, when no fixed version is known.", versionPattern))},
		Prop{"versions", optional(array("Versions the source names as affected, when it gives no range.", pattern("A version.", versionPattern)))})
	duration = nullable(pattern("A duration such as 56m, 1h10m or 2d, from the start of the impact; null when the source does not tell.", durationPattern))
	moment   = optional(nullable(pattern("A moment the source gives, YYYY-MM-DDTHH:MM and its zone (Z or +09:00), or no zone when the source names none; null or left out when not given.", momentPattern)))
	url      = pattern("An http or https URL.", httpPattern)
)

// CaseSchema is the format of content/cases/<ID>.json.
var CaseSchema = caseSchema()

// caseSchema makes the case schema of the facet table: the members that name
// a facet's terms follow the impact.
func caseSchema() *Schema {
	s := object("One incident post-mortem of the incidentlib library.",
		Prop{"$schema", optional(str("The address of this JSON Schema, so that editors check the file as it is typed; not part of the case."))},
		Prop{"draft", optional(&Schema{Types: []jsonpos.Kind{jsonpos.Bool}, Description: "true while the case is being written (incidentlib new sets it): the preview shows it, marked, with its problems on its own page; build, check and the API leave it out. Delete the line, or set false, to publish it."})},
		Prop{"id", pattern("The case id, such as IL-0495; the file is named after it.", idPattern)},
		Prop{"org", minLen(str("The organisation that had the incident."))},
		Prop{"org_slug", pattern("The organisation's URL slug.", slugPattern)},
		Prop{"date", nullable(pattern("The date, YYYY-MM-DD; YYYY-MM or YYYY when the report does not give the day or the month; null when it gives no date.", datePattern))},
		Prop{"date_kind", enum(str("What the date is the date of."), dateKinds)},
		Prop{"title", text("One-sentence title.")},
		Prop{"summary", text("What happened, in a few paragraphs.")},
		Prop{"symptoms_text", text("What users and operators saw.")},
		Prop{"trigger", text("What set the incident off.")},
		Prop{"detection", text("How it was noticed.")},
		Prop{"lessons", nullable(text("What the organisation learned; null when the report gives none."))},
		Prop{"remediation", array("What was done to recover, in order.", item)},
		Prop{"action_items", array("What was planned or done afterwards.", actionItem)},
		Prop{"impact", object("Who and what was affected; \"unknown\" when not known.",
			Prop{"scope", textOrString("What stopped working.")},
			Prop{"users", textOrString("Who was affected.")},
			Prop{"region", str("Where: an identifier such as us-east-1 or US, not translated.")})},
	)
	// The members of the first version keep their order, which the
	// published schema's list of required members follows.
	first := []*Facet{Severities, Symptoms, Components, RootCauses, Contributing, Domains}
	for _, f := range Facets {
		if !slices.Contains(first, f) {
			first = append(first, f)
		}
	}
	for _, f := range first {
		switch {
		case f.Field == "" || f.Doc == "":
		case f.Kind == Many:
			s.Props = append(s.Props, Prop{f.Field, termList(f.Doc)})
		case f.Optional:
			s.Props = append(s.Props, Prop{f.Field, optional(pattern(f.Doc, slugPattern))})
		default:
			s.Props = append(s.Props, Prop{f.Field, pattern(f.Doc, slugPattern)})
		}
	}
	s.Props = append(s.Props,
		Prop{"timeline", object("How long the impact lasted until it was detected, mitigated and over, each measured from the start of the impact, and the moments the source gives.",
			Prop{"detected_after", withDoc(duration, "Time to detect: from the start of the impact to its first detection, by anyone; null when unknown.")},
			Prop{"mitigated_after", optional(withDoc(duration, "Time to mitigate: from the start of the impact until it was reduced or a workaround was in place; null or left out when unknown."))},
			Prop{"resolved_after", withDoc(duration, "Time to resolve: from the start of the impact until it was over; null when unknown.")},
			Prop{"started_at", withDoc(moment, "When the impact started, as the source gives it.")},
			Prop{"detected_at", withDoc(moment, "When the impact was first detected.")},
			Prop{"mitigated_at", withDoc(moment, "When the impact was reduced or a workaround was in place.")},
			Prop{"resolved_at", withDoc(moment, "When the impact was over.")})},
		Prop{"sources", array("The public documents the case is written from.", object("A source.",
			Prop{"url", url},
			Prop{"kind", enum(str("The kind of document."), sourceKinds)},
			Prop{"archived", nullable(pattern("An archived copy's address, or \"none\" when no archived copy is known; null (not yet looked for) draws a warning.", archivedPattern))}))},
		Prop{"related", array("Ids of cases an editor linked to this one.", pattern("A case id.", idPattern))},
		Prop{"recurrence_of", nullable(pattern("The id of the earlier case this one repeats, or null.", idPattern))},
		Prop{"review", object("Who wrote the case and who reviewed it.",
			Prop{"written_by", minLen(str("Who wrote the case."))},
			Prop{"reviewed_at", nullable(pattern("The review date, YYYY-MM-DD, or null.", dayPattern))},
			Prop{"reviewed_by", nullable(str("Who reviewed it, or null."))})},
		Prop{"affected", optional(array("Where the failure applies: products and their versions, as the source names them; left out when it names none.", affected))},
		Prop{"withdrawn", optional(object("Set when the case is taken back: its page and API record stay at their address and say why; it leaves every list, topic, search and related case.",
			Prop{"date", pattern("The day it was withdrawn, YYYY-MM-DD.", dayPattern)},
			Prop{"reason", text("Why it was withdrawn.")},
			Prop{"replaced_by", array("Ids of the cases that replace it; empty when none does.", pattern("A case id.", idPattern))}))},
		Prop{"docs", array("Links to further documentation.", url)},
		Prop{"updated_at", pattern("When the case was last changed, RFC 3339.", dateTimePattern)},
		Prop{"incidentlib", optional(object("Not written in a case file: the build adds it to each line of cases.jsonl, naming the library's version and the data's licence.",
			Prop{"library_version", str("The library's version.")},
			Prop{"license", str("The licence's name, or empty.")},
			Prop{"license_url", str("Where its text is, or empty.")}))},
		Prop{"url", optional(pattern("Where the case is also published, if anywhere (the seed cases name the original library's app): the case page shows it as \"Also published at\". Leave it out for a case written here: the case's own address follows from base_url and its id.", httpPattern))})
	return s
}

func minLen(s *Schema) *Schema { s.MinLen = 1; return s }

func emptyOK(s *Schema) *Schema { s.Empty = true; return s }

func enum(s *Schema, values []string) *Schema { s.Enum = values; return s }

var vocabTerm = object("A vocabulary term.",
	Prop{"id", pattern("The term's slug, used in cases and URLs.", slugPattern)},
	Prop{"en", minLen(str("English label."))},
	Prop{"ko", minLen(str("Korean label."))},
	Prop{"description", optional(text("What the term means."))},
)

// VocabSchema is the format of content/vocab.json.
var VocabSchema = vocabSchema()

// vocabSchema makes the vocab.json schema of the facet table: a list of
// terms for every controlled facet, and the organisations.
func vocabSchema() *Schema {
	s := object("The controlled vocabularies.")
	for _, f := range ControlledFacets() {
		s.Props = append(s.Props, Prop{f.Field, array("Terms in display order.", vocabTerm)})
	}
	s.Props = append(s.Props, Prop{orgsField, optional(array("Organisations by org_slug: the name every page shows, and the Korean spelling search finds it by.", object("An organisation.",
		Prop{"id", pattern("The org_slug of its cases.", slugPattern)},
		Prop{"en", minLen(str("Its name as the organisation writes it, which pages in both languages show (HubSpot)."))},
		Prop{"ko", minLen(str("Its name as Korean engineers spell it (허브스팟): a search synonym, shown nowhere."))},
		Prop{"name_ko", optional(minLen(str("Only where en is a description rather than a name (Unnamed company, BC Government): what Korean pages show instead (이름을 밝히지 않은 회사).")))},
	)))})
	s.Props = append(s.Props, Prop{productsField, optional(array("Products cases may name in affected[].product, in display order.", object("A product.",
		Prop{"id", pattern("The slug cases name it by (ingress-nginx).", slugPattern)},
		Prop{"en", minLen(str("Its name on English pages (ingress-nginx)."))},
		Prop{"ko", minLen(str("Its name on Korean pages, usually as written in English."))},
		Prop{"url", optional(url)},
	)))})
	return s
}

var link = object("A labelled link.", Prop{"label", text("The label.")}, Prop{"url", settingURL("An http or https URL.", settingHTTPPattern)})

// checkSlug says why a slug cannot name a folder of the site, or "": a
// name Windows keeps for a device (urls.Reserved) could not be unpacked
// there.
func checkSlug(slug string) string {
	if urls.Reserved(slug) {
		return fmt.Sprintf("%q is a name Windows keeps for a device (con, prn, aux, nul, com1 to com9, lpt1 to lpt9): a folder of that name cannot be made there; choose another", slug)
	}
	return ""
}

// CheckBaseURL checks a base URL given other than in site.json (the build's
// -base-url) by the rule base_url in site.json follows, so that no other
// scheme (javascript:) and no markup can reach a page, and no long one
// can multiply the size of the output.
func CheckBaseURL(u string) error {
	if len(u) > maxSettingURLLen {
		return fmt.Errorf("%d characters long: at most %d may be", len(u), maxSettingURLLen)
	}
	if !baseURLMatch(u) {
		return fmt.Errorf("%q is not %s", u, patternMeaning(baseURLPattern))
	}
	return nil
}

var baseURLMatch = matcher(baseURLPattern)

// maxSettingURLLen is the longest URL site.json may hold: the base URL is
// written into every page and every entry of the sitemap and the API, so
// its length multiplies the output (a 200 kB one made 977 MB of 57 cases).
const maxSettingURLLen = 256

// settingURL is pattern with the length of a site.json URL capped.
func settingURL(desc, re string) *Schema {
	s := pattern(desc, re)
	s.MaxLen = maxSettingURLLen
	return s
}

// The range of page_size in site.json: a list page of more than a thousand
// cards would be megabytes.
const (
	minPageSize = 1
	maxPageSize = 1000
)

// SiteSchema is the format of content/site.json.
var SiteSchema = object("Site settings.",
	Prop{"title", text("The site's title.")},
	Prop{"description", text("One sentence about the library.")},
	Prop{"base_url", settingURL("The public URL of the site, ending in a slash.", baseURLPattern)},
	Prop{"page_size", optional(&Schema{Types: []jsonpos.Kind{jsonpos.Number}, Min: minPageSize, Max: maxPageSize,
		Description: "Cases per list page (default 20)."})},
	Prop{"callout", optional(object("A box shown on every case page and list page, such as a pointer to a tool of yours; leave it out (or its texts empty) for none.",
		Prop{"title", text("Its heading.")},
		Prop{"text", text("Its text (Markdown).")},
		Prop{"link", optional(link)}))},
	Prop{"mcp", object("The MCP server that serves the same data: incidentlib mcp, run locally, and a hosted one only when url names it.",
		Prop{"url", optional(settingURL("The address of a hosted MCP server (Streamable HTTP) that serves this library; leave it out when there is none.", settingHTTPPattern))},
		Prop{"tools", array("Tool names.", str("A tool name."))},
		Prop{"note", text("A sentence about it.")})},
	Prop{"links", array("Extra links for the footer.", link)},
	Prop{"license", optional(object("The licence the library's data is published under, which every download names; leave it out when none is chosen.",
		Prop{"name", minLen(str("Its name or SPDX id, such as CC-BY-4.0."))},
		Prop{"url", settingURL("Where its text is.", settingHTTPPattern)}))},
	Prop{"repository", optional(object("Where changes to the content go. Empty strings (the default) show nothing.",
		Prop{"url", emptyOK(settingURL("The repository's address, which the contribute page names as where changes go.", optionalHTTPPattern))},
		Prop{"edit_url", emptyOK(settingURL("The address that opens a content file for editing when the file's path is added (as Hugo's editURL does), such as https://github.com/OWNER/REPO/edit/main/content/; it puts a \"Suggest a correction\" link on every case page.", editURLPattern))}))},
)

// validator walks a parsed document against a schema, reporting problems.
type validator struct {
	doc  *jsonpos.Doc
	file string
	list *diag.List
}

func (c *validator) errorf(off int, at fieldPath, format string, args ...any) {
	line, col := c.doc.Pos(off)
	c.list.Errorf(c.file, line, col, at.String(), format, args...)
}

func kindsString(ks []jsonpos.Kind) string {
	var names []string
	for _, k := range ks {
		if k == jsonpos.Number {
			names = append(names, "integer")
		} else {
			names = append(names, k.String())
		}
	}
	return strings.Join(names, " or ")
}

// validate reports every way v differs from s and returns false if any.
func (c *validator) validate(v *jsonpos.Value, s *Schema, at fieldPath) bool {
	if !slices.Contains(s.Types, v.Kind) {
		c.errorf(v.Off, at, "expected %s, found %s", kindsString(s.Types), v.Kind)
		return false
	}
	switch v.Kind {
	case jsonpos.Number:
		return c.validateNumber(v, s, at)
	case jsonpos.String:
		return c.validateString(v, s, at)
	case jsonpos.Array:
		good := true
		for i, it := range v.Items {
			if !c.validate(it, s.Items, at.index(i)) {
				good = false
			}
		}
		return good
	case jsonpos.Object:
		return c.validateObject(v, s, at)
	}
	return true
}

// validateNumber reports a number that is not whole or out of s's range.
func (c *validator) validateNumber(v *jsonpos.Value, s *Schema, at fieldPath) bool {
	n, err := strconv.Atoi(v.Str)
	switch {
	case err != nil:
		c.errorf(v.Off, at, "expected a whole number, found %s", v.Str)
		return false
	case s.Max > 0 && (n < s.Min || n > s.Max):
		c.errorf(v.Off, at, "%d is out of range: it must be from %d to %d", n, s.Min, s.Max)
		return false
	}
	return true
}

// validateString reports a string too long, blank, not of s's pattern, or
// not one of its values.
func (c *validator) validateString(v *jsonpos.Value, s *Schema, at fieldPath) bool {
	if len(v.Str) > maxTextBytes {
		c.errorf(v.Off, at, "%s", textTooLong(len(v.Str)))
		return false
	}
	// An empty value is a field left to fill in (see Skeleton): say
	// that, rather than that "" is not a date or not a term.
	if v.Str == "" && s.Empty {
		return true
	}
	if blank(v.Str) && (s.MinLen > 0 || s.match != nil || s.Enum != nil) {
		c.errorf(v.Off, at, "must not be empty")
		return false
	}
	if s.MaxLen > 0 && utf8.RuneCountInString(v.Str) > s.MaxLen {
		c.errorf(v.Off, at, "%d characters long: at most %d may be", utf8.RuneCountInString(v.Str), s.MaxLen)
		return false
	}
	good := true
	if s.match != nil && !s.match(v.Str) {
		c.errorf(v.Off, at, "%q is not %s", v.Str, patternMeaning(s.Pattern))
		good = false
	}
	if s.Pattern == slugPattern {
		if msg := checkSlug(v.Str); msg != "" && s.match(v.Str) {
			c.errorf(v.Off, at, "%s", msg)
			good = false
		}
	}
	if s.Enum != nil && !contains(s.Enum, v.Str) {
		c.errorf(v.Off, at, "%q is not one of %s%s", v.Str, strings.Join(s.Enum, ", "), DidYouMean(v.Str, s.Enum))
		good = false
	}
	return good
}

// validateObject reports unknown and missing fields, too few of them, and
// every way each field's value differs from its schema.
func (c *validator) validateObject(v *jsonpos.Value, s *Schema, at fieldPath) bool {
	good := true
	for _, m := range v.Members {
		if s.prop(m.Key) == nil {
			c.errorf(m.KeyOff, at.key(m.Key), "unknown field%s", DidYouMean(m.Key, s.propNames()))
			good = false
		}
	}
	if len(v.Members) < s.MinProps {
		c.errorf(v.Off, at, "expected at least %d of %s", s.MinProps, strings.Join(s.propNames(), ", "))
		good = false
	}
	for _, p := range s.Props {
		mv := v.Get(p.Name)
		if mv == nil {
			if !p.Optional {
				c.errorf(v.Off, at.key(p.Name), "missing field")
				good = false
			}
			continue
		}
		if !c.validate(mv, p.Schema, at.key(p.Name)) {
			good = false
		}
	}
	return good
}

func (s *Schema) prop(name string) *Prop {
	for i := range s.Props {
		if s.Props[i].Name == name {
			return &s.Props[i]
		}
	}
	return nil
}

func (s *Schema) propNames() []string {
	names := make([]string, len(s.Props))
	for i, p := range s.Props {
		names[i] = p.Name
	}
	return names
}

// fieldPath is where a value is in its file, such as sources[0].url, as
// the steps from the root. The checks visit every value but report few, so
// a path becomes a string only for a message.
//
// key and index append to the path's array when it has room, so paths made
// from the same parent share memory: a walk that goes depth first, like the
// checks, reuses one array, and a path must not be kept after the walk has
// moved on. Only String's result may be kept.
type fieldPath []pathStep

type pathStep struct {
	key   string // a member's key
	index int    // an array element's index, or -1 for a member
}

// key returns the path of member name of the value at p.
func (p fieldPath) key(name string) fieldPath { return append(p, pathStep{key: name, index: -1}) }

// index returns the path of element i of the array at p.
func (p fieldPath) index(i int) fieldPath { return append(p, pathStep{index: i}) }

// String writes the path as messages show it: keys joined with dots,
// indexes in brackets, and "" for the root.
func (p fieldPath) String() string {
	var b []byte
	for _, st := range p {
		switch {
		case st.index >= 0:
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(st.index), 10)
			b = append(b, ']')
		case len(b) > 0:
			b = append(b, '.')
			fallthrough
		default:
			b = append(b, st.key...)
		}
	}
	return string(b)
}

func patternMeaning(p string) string {
	switch p {
	case idPattern:
		return "a case id like IL-0495 (two capital letters, a hyphen, 4 to 6 digits)"
	case slugPattern:
		return "a slug (lower-case letters, digits and single hyphens)"
	case datePattern:
		return "a date written YYYY-MM-DD (or YYYY-MM, or YYYY)"
	case dayPattern:
		return "a date written YYYY-MM-DD"
	case durationPattern:
		return "a duration like 56m, 1h10m or 2d3h"
	case httpPattern:
		return "an http or https URL"
	case baseURLPattern:
		return "an absolute http or https URL with a host, that ends in a slash, without a query, a fragment, a quote, an angle bracket, a space or a control character"
	case dateTimePattern:
		return "an RFC 3339 time like 2026-11-14T12:34:13Z"
	case settingHTTPPattern:
		return "an http or https URL with a host, and no quote, angle bracket, space or control character"
	case optionalHTTPPattern:
		return `"" (none) or an http or https URL`
	case archivedPattern:
		return `"none" (no archived copy is known) or an http or https URL`
	case momentPattern:
		return "a moment like 2024-08-27T14:20Z (YYYY-MM-DDTHH:MM, then the zone as Z or +09:00, or nothing when the source names no zone)"
	case versionPattern:
		return `a version like 1.11.2, v1.27 or 3.0.0-beta.1 (numbers separated by dots, an optional v, an optional -suffix), or "0" for every version from the start`
	case editURLPattern:
		return `"" (none) or an http or https URL that ends in a slash, to which the path of a file in the content folder is added`
	}
	return "of the form " + p
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// DidYouMean suggests the nearest candidate when it is close enough to be a
// plausible typo.
func DidYouMean(s string, candidates []string) string {
	best, bestD := "", 1<<30
	n := utf8.RuneCountInString(s)
	for _, c := range candidates {
		// The distance is at least the difference in length, and more
		// than 3 is never suggested: skip the costly measure.
		if m := utf8.RuneCountInString(c); m > n+3 || n > m+3 {
			continue
		}
		if d := EditDistance(s, c); d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	limit := len([]rune(s))/3 + 1
	if limit > 3 {
		limit = 3
	}
	if best == "" || bestD > limit {
		return ""
	}
	return " (did you mean " + strconv.Quote(best) + "?)"
}

// EditDistance is the Levenshtein distance between a and b, in runes. The
// search's "did you mean" uses it too.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// JSONSchema returns s as a JSON Schema (draft 2020-12) document.
func JSONSchema(s *Schema, id, title string) []byte {
	m := toJSONSchema(s)
	m["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	m["$id"] = id
	m["title"] = title
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic(err) // only maps, slices and strings: cannot fail
	}
	return append(b, '\n')
}

func toJSONSchema(s *Schema) map[string]any {
	m := map[string]any{}
	if s.Description != "" {
		m["description"] = s.Description
	}
	var types []string
	for _, k := range s.Types {
		if k == jsonpos.Number {
			types = append(types, "integer")
		} else {
			types = append(types, k.String())
		}
	}
	if len(types) == 1 {
		m["type"] = types[0]
	} else {
		m["type"] = types
	}
	if s.Max > 0 {
		m["minimum"], m["maximum"] = s.Min, s.Max
	}
	if s.Pattern != "" {
		m["pattern"] = s.Pattern
	}
	if s.MaxLen > 0 {
		m["maxLength"] = s.MaxLen
	}
	if s.MinProps > 0 {
		m["minProperties"] = s.MinProps
	}
	if s.MinLen > 0 {
		m["minLength"] = s.MinLen
		m["pattern"] = `\S`
	}
	if s.Enum != nil {
		e := append([]string(nil), s.Enum...)
		sort.Strings(e)
		m["enum"] = e
	}
	if s.Items != nil {
		m["items"] = toJSONSchema(s.Items)
	}
	if s.Props != nil || contains(types, "object") {
		props := map[string]any{}
		var req []string
		for _, p := range s.Props {
			props[p.Name] = toJSONSchema(p.Schema)
			if !p.Optional {
				req = append(req, p.Name)
			}
		}
		m["properties"] = props
		if len(req) > 0 {
			m["required"] = req
		}
		m["additionalProperties"] = false
	}
	return m
}
