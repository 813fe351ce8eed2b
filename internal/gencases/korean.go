package gencases

import (
	"strings"
	"unicode/utf8"
)

// Korean particles (josa) change shape with the sound that ends the word they
// follow: 은/이/을/과/으로 after a final consonant (batchim), 는/가/를/와/로
// after a vowel, and 으로 shrinks to 로 after ㄹ as well. The generator has to
// get this right, because search tests type words with particles attached
// ("로드 밸런서가", "캐시를") and expect them to match the text.

// particlePairs maps either form of an alternating particle to its
// (after-consonant, after-vowel) pair. Particles not listed here (의, 에,
// 에서, 도, 만, 부터, 까지) never change.
var particlePairs = map[string][2]string{
	"은": {"은", "는"}, "는": {"은", "는"},
	"이": {"이", "가"}, "가": {"이", "가"},
	"을": {"을", "를"}, "를": {"을", "를"},
	"과": {"과", "와"}, "와": {"과", "와"},
	"으로": {"으로", "로"}, "로": {"으로", "로"},
	"이나": {"이나", "나"}, "나": {"이나", "나"},
	"이라": {"이라", "라"}, "라": {"이라", "라"},
	// The stacked forms that actions.go's variants write.
	"으로는": {"으로는", "로는"}, "으로도": {"으로도", "로도"},
	"과도": {"과도", "와도"}, "과는": {"과는", "와는"},
}

// Digits and Latin letters are read aloud in Korean as below, and the
// reading decides the particle: "3" is 삼 (ㅁ), "1" is 일 (ㄹ), "L" is 엘.
// finals records, per character, 0 for no final consonant, 1 for one, and
// 2 for ㄹ.
var finals = func() map[rune]uint8 {
	m := map[rune]uint8{}
	// 영 일 이 삼 사 오 육 칠 팔 구
	for i, f := range []uint8{1, 2, 0, 1, 0, 0, 1, 2, 2, 0} {
		m[rune('0'+i)] = f
	}
	// Letter names: 에이 비 씨 디 이 에프 지 에이치 아이 제이 케이 엘 엠 엔 오
	// 피 큐 알 에스 티 유 브이 더블유 엑스 와이 지.
	for i, f := range []uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0} {
		m[rune('A'+i)] = f
		m[rune('a'+i)] = f
	}
	m['%'] = 0 // 퍼센트
	return m
}()

// finalSound reports how word ends when read aloud: 0 with a vowel, 1 with a
// final consonant other than ㄹ, 2 with ㄹ. Closing brackets and quotes are
// skipped, so "(API)" is judged by its I.
func finalSound(word string) uint8 {
	for len(word) > 0 {
		r, size := utf8.DecodeLastRuneInString(word)
		word = word[:len(word)-size]
		switch {
		case r >= 0xAC00 && r <= 0xD7A3:
			switch (r - 0xAC00) % 28 {
			case 0:
				return 0
			case 8: // ㄹ
				return 2
			default:
				return 1
			}
		case r == ')' || r == ']' || r == '"' || r == '\'' || r == '`' || r == ' ' || r == '.':
			continue
		}
		return finals[r]
	}
	return 0
}

// josa attaches particle to word in the form the word's last sound asks for.
// particle may be given in either form ("을" or "를"). The particle is
// attached to the word whatever its script ("HubSpot은", "GFE를"), as Korean
// spelling asks (한글 맞춤법 제41항) and as the hand-written cases do.
func josa(word, particle string) string {
	return attach(word, finalSound(word), particle)
}

// attach is josa with the final sound given, for names whose Latin spelling
// does not tell how they are read ("Cobalt Pay" is read 코발트 페이).
func attach(word string, sound uint8, particle string) string {
	if pair, ok := particlePairs[particle]; ok {
		switch sound {
		case 0:
			particle = pair[1]
		case 2:
			if strings.HasPrefix(pair[0], "으로") {
				particle = pair[1]
			} else {
				particle = pair[0]
			}
		default:
			particle = pair[0]
		}
	}
	return word + particle
}
