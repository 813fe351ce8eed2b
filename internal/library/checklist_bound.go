package library

// overlapAtLeast is overlap when it is at least t; otherwise it reports
// false, as soon as the words left cannot bring it to t. Most pairs the
// prefix filter finds do not merge, and at 10,000 generated cases reading
// them to their end was a quarter of the merging. The overlap is computed
// as overlap computes it, so that the same pairs pass.
func (s wordSet) overlapAtLeast(o wordSet, t float64) (float64, bool) {
	need := needFor(len(s)+len(o), t)
	common := 0
	for i, j := 0, 0; i < len(s) && j < len(o); {
		switch {
		case s[i] < o[j]:
			i++
		case s[i] > o[j]:
			j++
		default:
			common++
			i++
			j++
			continue
		}
		if common+min(len(s)-i, len(o)-j) < need {
			return 0, false
		}
	}
	if common < need {
		return 0, false
	}
	v := s.overlap(o)
	return v, v >= t
}

// needFor is the fewest words in common whose overlap, computed as overlap
// computes it, reaches t for two sets of n words in all. The overlap grows
// with the words in common, so fewer can never reach it.
func needFor(n int, t float64) int {
	need := max(int(t*float64(n)/(1+t))-1, 0)
	for need < n && float64(need)/float64(n-need) < t {
		need++
	}
	return need
}
