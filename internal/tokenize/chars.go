package tokenize

import (
	"slices"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Character classes. A "chunk" is a run of word characters; inside it the
// script runs (Hangul, other letters, digits) become separate words, so that
// "UTC에" and "2024년" split where the script changes.
const (
	clSep    = iota // anything that ends a chunk
	clSpace         // whitespace: ends a chunk, but Hangul words on both sides may form a compound
	clApos          // apostrophe: joins two letters ("hubspot's" → "hubspots"), otherwise a separator
	clLetter        // letters and marks of any script but Hangul
	clDigit         // decimal digits of any script
	clHangul        // Hangul syllables and jamo
)

// classOf returns the class of r. ASCII and Hangul syllables, most of the
// text, take a short path that the compiler inlines; the Unicode tables
// are slow.
func classOf(r rune) int {
	if r < utf8.RuneSelf {
		return int(asciiClass[r])
	}
	if r >= 0xAC00 && r <= 0xD7A3 {
		return clHangul
	}
	return classOfOther(r)
}

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for r := range rune(utf8.RuneSelf) {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z':
			t[r] = clLetter
		case '0' <= r && r <= '9':
			t[r] = clDigit
		case r == '\'':
			t[r] = clApos
		case r == ' ', '\t' <= r && r <= '\r':
			t[r] = clSpace
		default:
			t[r] = clSep
		}
	}
	return t
}()

// lowerASCII lower-cases an ASCII character.
var lowerASCII = func() (t [utf8.RuneSelf]byte) {
	for c := range byte(utf8.RuneSelf) {
		t[c] = c
		if 'A' <= c && c <= 'Z' {
			t[c] += 'a' - 'A'
		}
	}
	return t
}()

func classOfOther(r rune) int {
	switch {
	case r >= 0x1100 && r <= 0x11FF, r >= 0x3130 && r <= 0x318F,
		r >= 0xA960 && r <= 0xA97F, r >= 0xD7B0 && r <= 0xD7FF:
		return clHangul
	case unicode.Is(unicode.Nd, r):
		return clDigit
	case unicode.IsLetter(r) || unicode.IsMark(r):
		return clLetter
	case r == '\u2019':
		return clApos
	case unicode.IsSpace(r):
		return clSpace
	}
	return clSep
}

// lower returns text in NFC and lower-cased, in a buffer that the next call
// reuses.
func (tk *Tokenizer) lower(text string) []rune {
	// A text has no more characters than bytes.
	rs := slices.Grow(tk.rs[:0], len(text))[:len(text)]
	n := 0
	for i := 0; i < len(text); {
		// ASCII, most of an English text and the spaces and
		// punctuation of a Korean one, needs no decoding.
		c := text[i]
		if c < utf8.RuneSelf {
			rs[n] = rune(lowerASCII[c])
			n++
			i++
			continue
		}
		// A Hangul syllable, most of a Korean text, is three bytes from
		// EA B0 80 (U+AC00) to ED 9E A3 (U+D7A3), decoded here without a
		// call; utf8's decoder would say the same of them, and gets what
		// is not a syllable (nor valid, when its continuation bytes are not).
		if c >= 0xea && c <= 0xed && i+2 < len(text) {
			c1, c2 := text[i+1], text[i+2]
			if c1&0xc0 == 0x80 && c2&0xc0 == 0x80 {
				if r := rune(c&0x0f)<<12 | rune(c1&0x3f)<<6 | rune(c2&0x3f); r >= 0xac00 && r <= 0xd7a3 {
					rs[n] = r
					n++
					i += 3
					continue
				}
			}
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch {
		case r >= 0xac00 && r <= 0xd7a3:
			// Hangul syllables have no case.
		case !nfcStable(r):
			tk.rs = rs[:0]
			return tk.lowerAll(norm.NFC.String(text))
		default:
			r = fold(r)
		}
		rs[n] = r
		n++
	}
	tk.rs = rs[:n]
	return tk.rs
}

// lowerAll is lower for text known to be in NFC.
func (tk *Tokenizer) lowerAll(text string) []rune {
	rs := tk.rs[:0]
	for _, r := range text {
		rs = append(rs, fold(r))
	}
	tk.rs = rs
	return rs
}

// fold lower-cases r and turns the full-width forms of ASCII, which Korean
// input methods type ("ＨＡＰｒｏｘｙ"), into ASCII.
func fold(r rune) rune {
	if r >= 0xff01 && r <= 0xff5e {
		r -= 0xfee0
	}
	return unicode.ToLower(r)
}

// nfcStable reports, cheaply, that a character certainly stays as it is
// under NFC, whatever surrounds it: it is below the combining marks (U+0300)
// or a precomposed Hangul syllable. Almost all English and Korean text is
// made of such characters and so skips the normalizer's own slower check.
func nfcStable(r rune) bool {
	return r < 0x300 || r >= 0xac00 && r <= 0xd7a3
}
