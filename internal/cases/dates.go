package cases

import (
	"strconv"
	"strings"
	"time"
)

// parseDate reads YYYY-MM-DD, YYYY-MM or YYYY.
func parseDate(s string) (Date, bool) {
	var layout string
	switch len(s) {
	case 10:
		layout = "2006-01-02"
	case 7:
		layout = "2006-01"
	case 4:
		layout = "2006"
	default:
		return Date{}, false
	}
	t, err := time.Parse(layout, s)
	if err != nil {
		return Date{}, false
	}
	d := Date{Year: t.Year()}
	if len(s) >= 7 {
		d.Month = t.Month()
	}
	if len(s) == 10 {
		d.Day = t.Day()
	}
	return d, true
}

// parseMoment reads a moment of momentPattern: 2024-08-27T14:20Z,
// 2024-08-27T14:20+09:00, or 2024-08-27T14:20 with no zone.
func parseMoment(s string) (Moment, bool) {
	zoned := len(s) > 16
	in := s
	if !zoned {
		in += "Z"
	}
	t, err := time.Parse("2006-01-02T15:04Z07:00", in)
	if err != nil {
		return Moment{}, false
	}
	return Moment{Time: t, Zoned: zoned, Text: s}, true
}

// formatDuration writes minutes the way a case file writes a duration
// (1h10m, 2d3h, 0m), so that a message compares like with like.
func formatDuration(d Duration) string {
	var b []byte
	for _, u := range []struct {
		n    Duration
		unit byte
	}{{1440, 'd'}, {60, 'h'}, {1, 'm'}} {
		if d >= u.n || (u.n == 1 && len(b) == 0) {
			b = strconv.AppendInt(b, int64(d/u.n), 10)
			b = append(b, u.unit)
			d %= u.n
		}
	}
	return string(b)
}

// parseDuration reads durations such as 56m, 1h10m or 2d3h into minutes.
func parseDuration(s string) (Duration, bool) {
	if s == "" {
		return 0, false
	}
	total, n, digits := 0, 0, 0
	last := byte(0)
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch >= '0' && ch <= '9' {
			n = n*10 + int(ch-'0')
			digits++
			if n > 1e7 {
				return 0, false
			}
			continue
		}
		if digits == 0 {
			return 0, false
		}
		unit := 0
		switch ch {
		case 'd':
			unit = 1440
		case 'h':
			unit = 60
		case 'm':
			unit = 1
		}
		if unit == 0 || (last != 0 && !strings.ContainsRune("dhm"[strings.IndexByte("dhm", last)+1:], rune(ch))) {
			return 0, false
		}
		total += n * unit
		n, digits, last = 0, 0, ch
	}
	if digits != 0 || last == 0 {
		return 0, false
	}
	return Duration(total), true
}
