package cases

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"incidentlib/internal/jsonpos"
)

// LocalSchemaFile is where, in a content folder, the case format's JSON
// Schema is kept for editors (incidentlib new writes it), and
// LocalSchemaRef is how a case file in cases/ names it: a relative path
// that also leads from a case in the published API (api/v1/cases/) to the
// schema published beside it (api/v1/schema/case.json).
const (
	LocalSchemaFile = "schema/case.json"
	LocalSchemaRef  = "../schema/case.json"
)

// Skeleton returns a new case file for id with every field of CaseSchema,
// in its order: texts in both languages and the values an editor must
// supply left empty, so that checking the file lists exactly what is left
// to fill in. Fields with a default that is true until known otherwise get
// it: a facet's Unknown value (severity "unknown"), null timings and review, the first date kind. The
// file names its JSON Schema (schemaURL) for editors that check as you type.
func Skeleton(id, schemaURL string, now time.Time) ([]byte, error) {
	if !matcher(idPattern)(id) {
		return nil, fmt.Errorf("%q is not %s", id, patternMeaning(idPattern))
	}
	set := map[string]any{
		"$schema":    schemaURL,
		"draft":      true, // until the editor says it is done
		"id":         id,
		"updated_at": now.UTC().Format(time.RFC3339),
		// Left to fill in, not null: null says the source gives no date,
		// which only the editor can tell.
		"date": "",
	}
	for _, f := range Facets { // severity "unknown"
		if f.Unknown != "" && f.Kind == One {
			set[f.Field] = f.Unknown
		}
	}
	var b bytes.Buffer
	skeleton(&b, CaseSchema, "", set)
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return nil, err // a bug in skeleton, not bad input
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// skeleton writes the empty value of s, compactly; set gives the value of
// members by name.
func skeleton(b *bytes.Buffer, s *Schema, name string, set map[string]any) {
	if v, ok := set[name]; ok {
		j, _ := json.Marshal(v)
		b.Write(j)
		return
	}
	kind := s.Types[len(s.Types)-1]
	isText := kind == jsonpos.Object && len(s.Props) == 2 && s.Props[0].Name == "en" && s.Props[1].Name == "ko"
	switch {
	case isText:
		b.WriteString(`{"en":"","ko":""}`) // lessons too: null is for a report that gives none
	case s.Types[0] == jsonpos.Null:
		b.WriteString("null")
	case kind == jsonpos.Object:
		b.WriteByte('{')
		first := true
		for _, p := range s.Props {
			// A member that may be left out is, unless given: an editor
			// adds it when it applies.
			if _, given := set[p.Name]; p.Optional && !given {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			k, _ := json.Marshal(p.Name)
			b.Write(k)
			b.WriteByte(':')
			skeleton(b, p.Schema, p.Name, set)
		}
		b.WriteByte('}')
	case kind == jsonpos.Array:
		// A list of objects (steps, sources) gets one to copy; a list of
		// ids or links starts empty, which is a valid value.
		b.WriteByte('[')
		if s.Items.Types[0] == jsonpos.Object {
			skeleton(b, s.Items, "", set)
		}
		b.WriteByte(']')
	case s.Enum != nil:
		j, _ := json.Marshal(s.Enum[0])
		b.Write(j)
	default:
		b.WriteString(`""`)
	}
}

// ValidID reports whether id is a case id, such as IL-0495.
func ValidID(id string) bool { return idMatch(id) }

var idMatch = matcher(idPattern)

// FixID returns the case id that id was most likely meant to be (il-601
// is IL-0601: capitals, and digits padded to four), or "" when there is
// none.
func FixID(id string) string {
	prefix, digits, ok := strings.Cut(strings.TrimSpace(id), "-")
	if !ok || len(prefix) != 2 || digits == "" || len(digits) > 6 {
		return ""
	}
	for _, r := range digits {
		if r < '0' || r > '9' {
			return ""
		}
	}
	if len(digits) < 4 {
		digits = strings.Repeat("0", 4-len(digits)) + digits
	}
	fixed := strings.ToUpper(prefix) + "-" + digits
	if !idMatch(fixed) {
		return ""
	}
	return fixed
}

// NextFreeID returns the id after the highest of the library's cases and
// drafts, with the prefix of that one (IL-0524 after IL-0523); IL-0001
// for an empty library.
func NextFreeID(lib *Library) string {
	best, bestN, width := "IL", 0, 4
	consider := func(id string) {
		prefix, digits, _ := strings.Cut(id, "-")
		n, err := strconv.Atoi(digits)
		if err == nil && n >= bestN {
			best, bestN, width = prefix, n, len(digits)
		}
	}
	for _, c := range lib.Cases {
		consider(c.ID)
	}
	for _, d := range lib.Drafts {
		if ValidID(d.ID) {
			consider(d.ID)
		}
	}
	next := strconv.Itoa(bestN + 1)
	if len(next) < width {
		next = strings.Repeat("0", width-len(next)) + next
	}
	return best + "-" + next
}
