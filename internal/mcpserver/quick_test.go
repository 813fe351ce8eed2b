package mcpserver

import "testing"

// sample is all of s, or with -short (the quick loop) every third one,
// the first among them: the tests that call a tool once for every case or
// topic of the library and check each answer against the model.
func sample[T any](s []T) []T {
	if !testing.Short() {
		return s
	}
	var out []T
	for i := 0; i < len(s); i += 3 {
		out = append(out, s[i])
	}
	return out
}
