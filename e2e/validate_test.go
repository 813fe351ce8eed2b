package e2e

import (
	"testing"

	"incidentlib/internal/webtest"
)

// TestHTMLValid runs the Nu HTML checker over every page of the site.
func TestHTMLValid(t *testing.T) {
	t.Parallel()
	for _, e := range webtest.VNU(t, site(t)) {
		t.Errorf("vnu: %s", e)
	}
}

// TestHTMLValidate runs html-validate over every page of the site.
func TestHTMLValidate(t *testing.T) {
	t.Parallel()
	for _, e := range webtest.HTMLValidate(t, site(t)) {
		t.Errorf("html-validate: %s", e)
	}
}

// TestLinks checks every link of every page, recursively, on a local server.
func TestLinks(t *testing.T) {
	t.Parallel()
	for _, l := range webtest.Links(t, site(t)) {
		t.Errorf("broken link: %s", l)
	}
}
