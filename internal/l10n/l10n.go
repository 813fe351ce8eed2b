// Package l10n writes dates, durations, counts and ranges the way English and
// Korean readers write them, and holds the user-interface strings of both
// languages, loaded from one data file and checked so that a key present in
// one language and missing in the other is an error rather than a blank.
package l10n

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Strings are the UI strings: key → language → text.
type Strings map[string]map[string]string

// ParseStrings reads the strings file ({"key": {"en": "…", "ko": "…"}}) and
// reports every key that lacks a language.
func ParseStrings(data []byte) (Strings, error) {
	var s Strings
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("strings: %w", err)
	}
	var missing []string
	for k, m := range s {
		for _, lang := range []string{"en", "ko"} {
			if strings.TrimSpace(m[lang]) == "" {
				missing = append(missing, fmt.Sprintf("%q has no %s text", k, lang))
			}
		}
		for lang := range m {
			if lang != "en" && lang != "ko" {
				missing = append(missing, fmt.Sprintf("%q has text for unknown language %q", k, lang))
			}
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("strings: %s", strings.Join(missing, "; "))
	}
	return s, nil
}

// Get returns the string for key in lang. An unknown key is returned in
// brackets, visibly, and the template tests look for such brackets.
func (s Strings) Get(lang, key string) string {
	if v, ok := s[key][lang]; ok {
		return v
	}
	return "[" + key + "]"
}

// Prefixed returns the strings whose key starts with prefix, keyed
// without it: one part of the catalogue, such as the MCP answers' "mcp.".
func (s Strings) Prefixed(prefix string) Strings {
	part := Strings{}
	for k, v := range s {
		if rest, ok := strings.CutPrefix(k, prefix); ok {
			part[rest] = v
		}
	}
	return part
}

// scriptMarker is where the search page's script takes its words.
var scriptMarker = []byte("/*catalogue*/null")

// IntoScript writes the "js." keys of s into a script over its one marker
// /*catalogue*/null, as {"en": {key: text}, "ko": {…}} without the prefix,
// so that the search script a site ships says what the catalogue says.
func (s Strings) IntoScript(script []byte) ([]byte, error) {
	if bytes.Count(script, scriptMarker) != 1 {
		return nil, fmt.Errorf("want one %s where the catalogue's words go", scriptMarker)
	}
	words := map[string]map[string]string{"en": {}, "ko": {}}
	for key, byLang := range s.Prefixed("js.") {
		for lang, m := range words {
			m[key] = byLang[lang]
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(words); err != nil {
		return nil, err
	}
	return bytes.Replace(script, scriptMarker, bytes.TrimSpace(b.Bytes()), 1), nil
}

var enMonths = [...]string{"", "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}

// Date writes a calendar date in full: "27 August 2024", "2024년 8월 27일".
// A zero day or month is not known and is left out: "August 2024", "2024년".
func Date(lang string, y int, m time.Month, d int) string {
	switch {
	case m == 0:
		return year(lang, y)
	case d == 0:
		return month(lang, y, m)
	}
	if lang == "ko" {
		return fmt.Sprintf("%d년 %d월 %d일", y, int(m), d)
	}
	return fmt.Sprintf("%d %s %d", d, enMonths[m], y)
}

// Year writes a year as a label: "2024", "2024년".
func Year(lang string, y int) string { return year(lang, y) }

// year writes a year: "2024", "2024년".
func year(lang string, y int) string {
	if lang == "ko" {
		return fmt.Sprintf("%d년", y)
	}
	return fmt.Sprintf("%d", y)
}

// month writes a month: "August 2024", "2024년 8월".
func month(lang string, y int, m time.Month) string {
	if lang == "ko" {
		return fmt.Sprintf("%d년 %d월", y, int(m))
	}
	return fmt.Sprintf("%s %d", enMonths[m], y)
}

// Duration writes minutes as "1h 10m" / "1시간 10분", "56m" / "56분",
// "2d 3h" / "2일 3시간".
func Duration(lang string, minutes int) string {
	d, h, m := minutes/1440, minutes%1440/60, minutes%60
	units := [3]string{"d", "h", "m"}
	if lang == "ko" {
		units = [3]string{"일", "시간", "분"}
	}
	var parts []string
	for i, n := range [3]int{d, h, m} {
		if n > 0 {
			parts = append(parts, Number(n)+units[i])
		}
	}
	if len(parts) == 0 {
		return "0" + units[2]
	}
	return strings.Join(parts, " ")
}

// Number writes an integer with thousands separators, as both languages do.
func Number(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Cases writes a number of cases: "1 case", "4 cases", "사례 4건".
func Cases(lang string, n int) string {
	if lang == "ko" {
		return "사례 " + Number(n) + "건"
	}
	if n == 1 {
		return "1 case"
	}
	return Number(n) + " cases"
}

// Count writes a bare count of cases for lists and charts: "4", "4건".
func Count(lang string, n int) string {
	if lang == "ko" {
		return Number(n) + "건"
	}
	return Number(n)
}

// Range writes which part of a list a page shows: "1–4 of 4",
// "4건 중 1~4번째".
func Range(lang string, from, to, total int) string {
	if lang == "ko" {
		return fmt.Sprintf("%s건 중 %s~%s번째", Number(total), Number(from), Number(to))
	}
	return fmt.Sprintf("%s–%s of %s", Number(from), Number(to), Number(total))
}

// PageNumber writes "Page 2 of 5" / "5쪽 중 2쪽".
func PageNumber(lang string, n, total int) string {
	if lang == "ko" {
		return fmt.Sprintf("%s쪽 중 %s쪽", Number(total), Number(n))
	}
	return fmt.Sprintf("Page %s of %s", Number(n), Number(total))
}

// List joins items as each language writes a short list: "a, b and c",
// "a, b, c".
func List(lang string, items []string) string {
	if lang == "ko" || len(items) < 2 {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
