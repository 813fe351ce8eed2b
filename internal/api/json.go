package api

import (
	"strconv"
	"unicode/utf8"
)

// The API's many files (two for every case, one for every topic) are
// written by appending to a byte slice rather than through encoding/json,
// whose reflection cost more than everything else the API does. What is
// appended is exactly what encoding/json writes with HTML escaping off;
// TestAppendString and TestFilesAreCanonical hold it to that.

// appendString appends s as a JSON string, escaped as encoding/json escapes
// it without HTML escaping: quote, backslash and control characters, with
// \b \f \n \r \t in short form; U+2028 and U+2029, which JavaScript does not
// allow in a string; and each byte of invalid UTF-8 as U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0 // s[start:i] is still to be copied
	for i := 0; i < len(s); {
		// Most of the text is written as it is: ASCII eight bytes at a
		// time where it can, and a character of two or three bytes, as
		// Hangul, without decoding it.
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			for i++; i+8 <= len(s); i += 8 {
				w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
					uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
				if !plainWord(w) {
					break
				}
			}
			continue
		}
		if c >= 0xC2 && c < 0xE0 && i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
			i += 2 // valid: "·", "é"
			continue
		}
		if c >= 0xE1 && c <= 0xEF && i+2 < len(s) && s[i+2]&0xC0 == 0x80 {
			// Valid, not a surrogate, and not U+2028 or U+2029 (E2 80 A8
			// and A9): Hangul, “quotes”, "–".
			if lo := s[i+1]; lo >= 0x80 && (lo <= 0x9F || lo <= 0xBF && c != 0xED) && (c != 0xE2 || lo != 0x80 || s[i+2]&^1 != 0xA8) {
				i += 3
				continue
			}
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// plainWord says whether the eight bytes of w are ASCII that a JSON
// string holds as it is: no quote, backslash or control character. Where w
// has a zero byte, x - ones sets the top bit of that byte, and of no byte
// when it has none; so do the bytes below 0x20 for w - 0x20 × ones.
func plainWord(w uint64) bool {
	const ones, tops = 0x0101010101010101, 0x8080808080808080
	q, bs := w^(ones*'"'), w^(ones*'\\')
	return (w|(q-ones)&^q|(bs-ones)&^bs|(w-ones*0x20)&^w)&tops == 0
}

// appendStrings appends a JSON array of strings; nil is the empty array.
func appendStrings(b []byte, list []string) []byte {
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendPair appends {"en":en,"ko":ko}, the shape of every text in both
// languages and of every pair of page URLs.
func appendPair(b []byte, en, ko string) []byte {
	b = append(b, `{"en":`...)
	b = appendString(b, en)
	b = append(b, `,"ko":`...)
	b = appendString(b, ko)
	return append(b, '}')
}

// appendKey appends the comma and key that start a member other than the
// first; key must need no escaping.
func appendKey(b []byte, key string) []byte {
	b = append(b, ',', '"')
	b = append(b, key...)
	return append(b, '"', ':')
}

func appendInt(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) }

// appendCompact appends the JSON text src, which the loader has read as
// valid, without its insignificant white space: what json.Compact writes
// of valid JSON (TestAppendCompact compares them), without its scanner's
// call for every byte, which was a fifth of the API's time at 1,000 cases.
func appendCompact(b, src []byte) []byte {
	start := 0 // src[start:i] is still to be copied
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case ' ', '\t', '\n', '\r':
			b = append(b, src[start:i]...)
			start = i + 1
		case '"':
			// To the closing quote: a backslash escapes the next byte.
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
		}
	}
	return append(b, src[start:]...)
}
