package cases

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// matcherPatterns are the patterns with a hand-written matcher, each with
// strings it matches, from which the tests make near misses.
var matcherPatterns = map[string][]string{
	idPattern:       {"IL-0495", "AB-123456", "ZZ-00000"},
	slugPattern:     {"a", "kube-apiserver", "x1-2-y3", "0"},
	datePattern:     {"2019", "2019-04", "2019-04-23"},
	dayPattern:      {"2019-04-23", "0000-99-99"},
	durationPattern: {"", "56m", "1h10m", "2d", "2d3h4m", "0d0m", "123h"},
	httpPattern:     {"http://a", "https://example.org/x?y=1#z", "https://한국.kr/", "http://\xff"},
	dateTimePattern: {"2026-11-14T12:34:13Z", "2026-11-14T12:34:13.123+09:00", "2026-11-14T12:34:13-05:30"},
}

// TestMatchers holds each hand-written matcher to its regular expression on
// the examples, on every string one edit away from them, and on random
// strings over the characters the patterns care about.
func TestMatchers(t *testing.T) {
	const alphabet = "0123456789-:.+TZdhmazAZ/ps\t\n\f\r\v\xff한"
	rng := rand.New(rand.NewPCG(1, 2))
	for pattern, examples := range matcherPatterns {
		re, match := regexp.MustCompile(pattern), matcher(pattern)
		check := func(s string) {
			if got, want := match(s), re.MatchString(s); got != want {
				t.Errorf("%s: matcher says %v for %q, the expression %v", pattern, got, s, want)
			}
		}
		matched := 0
		for _, ex := range examples {
			if re.MatchString(ex) {
				matched++
			}
			check(ex)
			for i := 0; i <= len(ex); i++ {
				for j := 0; j < len(alphabet); j++ {
					check(ex[:i] + alphabet[j:j+1] + ex[i:]) // insert
					if i < len(ex) {
						check(ex[:i] + alphabet[j:j+1] + ex[i+1:]) // replace
					}
				}
				if i < len(ex) {
					check(ex[:i] + ex[i+1:]) // delete
				}
			}
		}
		if matched != len(examples) {
			t.Errorf("%s: only %d of its examples match the expression", pattern, matched)
		}
		for range 20000 {
			b := make([]byte, rng.IntN(24))
			for i := range b {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
			check(string(b))
		}
	}
}

func FuzzMatchers(f *testing.F) {
	for _, examples := range matcherPatterns {
		for _, ex := range examples {
			f.Add(ex)
		}
	}
	var res []*regexp.Regexp
	for pattern := range matcherPatterns {
		res = append(res, regexp.MustCompile(pattern))
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, re := range res {
			if got, want := matcher(re.String())(s), re.MatchString(s); got != want {
				t.Errorf("%s: matcher says %v for %q, the expression %v", re, got, s, want)
			}
		}
	})
}
