package cases

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"incidentlib/internal/repotest"
)

func TestCompareVersions(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"1.11.2", "1.11.2", 0},
		{"v1.11.2", "1.11.2", 0},
		{"1.27", "1.27.0", 0},
		{"1.27", "1.27.0.0", 0},
		{"1.9.0", "1.10.0", -1}, // numbers, not text
		{"1.10", "1.9.9", 1},
		{"2", "1.99.99", 1},
		{"v20240202", "20240101", 1},
		{"2024.08.1", "2024.8.1", 0},
		{"3.0.0-beta.1", "3.0.0", -1}, // a pre-release before its release
		{"3.0.0-beta.2", "3.0.0-beta.10", -1},
		{"3.0.0-alpha", "3.0.0-beta", -1},
		{"3.0.0-1", "3.0.0-alpha", -1}, // numbers below words
		{"3.0.0-rc.1", "2.9.9", 1},
		{"1.0.0+build.5", "1.0.0", 0},
		{"0", "0.0.1", -1},
		{"123456789012345678901234567890", "123456789012345678901234567889", 1},
	} {
		if got := CompareVersions(tc.a, tc.b); got != tc.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := CompareVersions(tc.b, tc.a); got != -tc.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", tc.b, tc.a, got, -tc.want)
		}
	}
}

func TestAffectedMatches(t *testing.T) {
	for _, tc := range []struct {
		a       Affected
		yes, no []string
	}{
		{Affected{Introduced: "1.9.0", Fixed: "1.11.2"},
			[]string{"1.9.0", "v1.9", "1.10.5", "1.11.1", "1.11.2-rc.1"},
			[]string{"1.8.9", "1.9.0-beta", "1.11.2", "v1.11.2", "1.12", "2.0.0", "not-a-version", ""}},
		{Affected{Introduced: "0", Fixed: "1.10.0"},
			[]string{"0.0.1", "1.9.99", "v1.0"},
			[]string{"1.10.0", "1.10.1"}},
		{Affected{Introduced: "3.26.0", LastAffected: "3.27.1"},
			[]string{"3.26.0", "3.27", "3.27.1"},
			[]string{"3.25.9", "3.27.2", "3.28.0"}},
		{Affected{LastAffected: "2.4"},
			[]string{"0.1", "2.4.0"},
			[]string{"2.4.1"}},
		{Affected{Introduced: "v1.35.0"},
			[]string{"1.35.0", "v9.0"},
			[]string{"1.34.9"}},
		{Affected{Versions: []string{"2.0.0", "v2.0.1"}},
			[]string{"2.0", "2.0.1"},
			[]string{"2.0.2", "1.9"}},
	} {
		for _, v := range tc.yes {
			if !tc.a.Matches(v) {
				t.Errorf("%+v does not match %q", tc.a, v)
			}
		}
		for _, v := range tc.no {
			if tc.a.Matches(v) {
				t.Errorf("%+v matches %q", tc.a, v)
			}
		}
	}
}

// TestAffectedChecks checks ranges and products on the fixture's
// vocabulary: an unknown product with a suggestion, a range that ends
// before it starts, one with both ends, one that names no version.
func TestAffectedChecks(t *testing.T) {
	m := repotest.PrepareContent(t)
	var c map[string]any
	if err := json.Unmarshal(m["cases/IL-0081.json"].Data, &c); err != nil {
		t.Fatal(err)
	}
	c["affected"] = []any{
		map[string]any{"product": "ingres-nginx", "introduced": "1.0"},
		map[string]any{"product": "ingress-nginx", "introduced": "1.12.0", "fixed": "1.11.2"},
		map[string]any{"product": "ingress-nginx", "introduced": "1.12.0", "fixed": "v1.12"},
		map[string]any{"product": "traefik", "fixed": "2.0.1", "last_affected": "2.0.0"},
		map[string]any{"product": "traefik"},
		map[string]any{"product": "traefik", "introduced": "2.1", "last_affected": "2.0.9"},
		map[string]any{"product": "traefik", "introduced": "2.1", "last_affected": "v2.1.0"},
		map[string]any{"product": "no-such-product", "versions": []any{"1.27"}},
	}
	b, _ := json.MarshalIndent(c, "", "  ")
	m["cases/IL-0081.json"] = &fstest.MapFile{Data: b}
	lib, list := Load(m)
	var got []string
	for _, d := range list.Items {
		if strings.Contains(d.String(), "affected") {
			got = append(got, d.Field+": "+d.Msg)
		}
	}
	want := []string{
		`affected[0].product: unknown product "ingres-nginx" (did you mean "ingress-nginx"?)`,
		`affected[1].fixed: "1.11.2" is not after introduced "1.12.0": the range holds no version`,
		`affected[2].fixed: "v1.12" is not after introduced "1.12.0": the range holds no version`,
		`affected[3].last_affected: a range ends either at fixed (the first version without the failure) or at last_affected (the last one with it), not both`,
		`affected[4]: names no version: give introduced, fixed, last_affected or versions, or leave the product out`,
		`affected[5].last_affected: "2.0.9" comes before introduced "2.1": the range holds no version`,
		`affected[7].product: unknown product "no-such-product": add it to vocab.json's products`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	_ = lib
	// The fixture itself loads, and a case's products are its facet's terms.
	lib, list = Load(repotest.PrepareContent(t))
	if list.Errors() > 0 {
		t.Fatal(list.Err())
	}
	if got := Products.Terms(lib.ByID["IL-0081"]); len(got) != 1 || got[0] != "ingress-nginx" {
		t.Errorf("IL-0081's products %v", got)
	}
	if p, ok := lib.Vocab.Product("nginx-ingress-chart"); !ok || p.Label.Ko != "nginx-ingress Helm 차트" {
		t.Errorf("product %+v %v", p, ok)
	}
}
