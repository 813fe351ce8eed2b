package webtest

import (
	"os"
	"testing"
)

// Heavy marks a test that needs a browser, an external checker (node,
// java) or a large generated library: `go test -short` (make test-quick)
// skips it, saying why. Without -short it runs, and a missing tool fails
// it (see Require).
func Heavy(t testing.TB, why string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("-short: %s", why)
	}
}

// strict reports whether a missing tool must fail the tests that need it
// rather than skip them: under CI (CI=true) and in `make test`, which sets
// INCIDENTLIB_REQUIRE_TOOLS=1.
func strict() bool {
	ci := os.Getenv("CI")
	return (ci != "" && ci != "false" && ci != "0") || os.Getenv("INCIDENTLIB_REQUIRE_TOOLS") == "1"
}

// Missing handles a tool the test needs and cannot find or start: under
// strict it fails the test, otherwise it skips it. Either way it says what
// is missing and how to get it. The helpers of this package (Browser, VNU,
// Links…) always fail instead: a test that calls them has chosen to need
// the tool; Missing is for the packages that test their own code in a
// browser or in node when there is one.
func Missing(t testing.TB, what string, err error) {
	t.Helper()
	msg := what + " is missing or does not start: " + err.Error() + "; run `make test-deps` (scripts/test-deps.sh installs it)"
	if strict() {
		t.Fatal(msg + " (a missing tool fails under CI=true and in make test)")
	}
	t.Skip(msg + " (skipped: set CI=true or INCIDENTLIB_REQUIRE_TOOLS=1 to make this fail)")
}
