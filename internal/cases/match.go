package cases

import "regexp"

// The schema's patterns are published as regular expressions, but checking
// them with package regexp costs about a microsecond a call, and loading
// makes dozens of calls per case. The functions below match the same
// strings by hand; TestMatchers holds each to its expression.

// matcher returns the function that matches pattern: a hand-written one
// when there is one, otherwise the compiled expression.
func matcher(pattern string) func(string) bool {
	switch pattern {
	case idPattern:
		return isID
	case slugPattern:
		return isSlug
	case datePattern:
		return isDate
	case dayPattern:
		return isDay
	case durationPattern:
		return isDuration
	case httpPattern:
		return isHTTP
	case dateTimePattern:
		return isDateTime
	}
	return regexp.MustCompile(pattern).MatchString
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// digits reports whether s[i:j] is in range and all digits.
func digits(s string, i, j int) bool {
	if j > len(s) {
		return false
	}
	for ; i < j; i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// IsID reports whether s has the form of a case id (IL-0495), for callers
// that take ids from outside the library.
func IsID(s string) bool { return isID(s) }

// isID matches idPattern: two capital letters, a hyphen, 4 to 6 digits.
func isID(s string) bool {
	return len(s) >= 7 && len(s) <= 9 && 'A' <= s[0] && s[0] <= 'Z' && 'A' <= s[1] && s[1] <= 'Z' &&
		s[2] == '-' && digits(s, 3, len(s))
}

// isSlug matches slugPattern: words of lower-case letters and digits
// joined by single hyphens.
func isSlug(s string) bool {
	word := false // the last byte was a letter or digit
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z' || isDigit(c):
			word = true
		case c == '-' && word:
			word = false
		default:
			return false
		}
	}
	return word
}

// isDate matches datePattern: YYYY, YYYY-MM or YYYY-MM-DD.
func isDate(s string) bool {
	switch len(s) {
	case 4:
		return digits(s, 0, 4)
	case 7:
		return digits(s, 0, 4) && s[4] == '-' && digits(s, 5, 7)
	case 10:
		return isDay(s)
	}
	return false
}

// isDay matches dayPattern: YYYY-MM-DD.
func isDay(s string) bool {
	return len(s) == 10 && digits(s, 0, 4) && s[4] == '-' && digits(s, 5, 7) && s[7] == '-' && digits(s, 8, 10)
}

// isDuration matches durationPattern: optional days, hours and minutes in
// that order, each a number and its unit. The empty string matches.
func isDuration(s string) bool {
	i := 0
	for _, unit := range []byte("dhm") {
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j > i && j < len(s) && s[j] == unit {
			i = j + 1
		}
	}
	return i == len(s)
}

// isHTTP matches httpPattern: http:// or https:// and at least one more
// byte, with no space, tab, line feed, form feed or carriage return (the
// expression's \s) anywhere.
func isHTTP(s string) bool {
	var rest string
	switch {
	case len(s) > 8 && s[:8] == "https://":
		rest = s[8:]
	case len(s) > 7 && s[:7] == "http://":
		rest = s[7:]
	default:
		return false
	}
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case ' ', '\t', '\n', '\f', '\r':
			return false
		}
	}
	return true
}

// isDateTime matches dateTimePattern: an RFC 3339 time such as
// 2026-11-14T12:34:13Z or 2026-11-14T12:34:13.5+09:00.
func isDateTime(s string) bool {
	if len(s) < 20 || !isDay(s[:10]) || s[10] != 'T' || !digits(s, 11, 13) || s[13] != ':' ||
		!digits(s, 14, 16) || s[16] != ':' || !digits(s, 17, 19) {
		return false
	}
	i := 19
	if s[i] == '.' {
		j := i + 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i+1 {
			return false
		}
		i = j
	}
	zone := s[i:]
	if zone == "Z" {
		return true
	}
	return len(zone) == 6 && (zone[0] == '+' || zone[0] == '-') && digits(zone, 1, 3) && zone[3] == ':' && digits(zone, 4, 6)
}
