package incidentlib

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"incidentlib/internal/webtest"
)

// The publishing recipes (README, "Publish") are files of the repository,
// each checked here by a parser of its own format: the GitHub Actions
// workflow by actionlint, netlify.toml by go-toml's tomll, the GitLab CI
// file by yq. The checkers are pinned and installed with go install into
// .cache/bin on first use.
var recipeCheckers = map[string]struct{ pkg, version string }{
	"actionlint": {"github.com/rhysd/actionlint/cmd/actionlint", "v1.7.12"},
	"tomll":      {"github.com/pelletier/go-toml/v2/cmd/tomll", "v2.4.3"},
	"yq":         {"github.com/mikefarah/yq/v4", "v4.47.2"},
}

// checker returns the path of the named checker, installing it when it is
// missing; without it the test is skipped, or fails under CI (see
// webtest.Missing).
func checker(t *testing.T, name string) string {
	t.Helper()
	bin, err := filepath.Abs(filepath.Join(".cache", "bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	c := recipeCheckers[name]
	cmd := exec.Command("go", "install", c.pkg+"@"+c.version)
	cmd.Env = append(os.Environ(), "GOBIN="+filepath.Dir(bin))
	if out, err := cmd.CombinedOutput(); err != nil {
		webtest.Missing(t, name, &installError{err, string(out)})
	}
	return bin
}

type installError struct {
	err error
	out string
}

func (e *installError) Error() string {
	return "go install: " + e.err.Error() + ": " + strings.TrimSpace(e.out)
}

// goVersion is the Go version go.mod pins.
func goVersion(t *testing.T) string {
	b, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go ([0-9.]+)$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("go.mod pins no go version")
	}
	return string(m[1])
}

// TestRecipesPinGo: the recipes that name a Go version name go.mod's, so
// that a host builds with the Go the code is written for.
func TestRecipesPinGo(t *testing.T) {
	v := goVersion(t)
	for file, want := range map[string]string{
		"netlify.toml":                `GO_VERSION = "` + v + `"`,
		"deploy/gitlab-ci.yml":        "image: golang:" + v,
		".github/workflows/pages.yml": "go-version-file: go.mod",
	} {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("%s does not hold %q", file, want)
		}
		if !strings.Contains(string(b), "BASE_URL=") {
			t.Errorf("%s builds without setting the base URL", file)
		}
	}
}

// TestRecipesParse runs each recipe through its format's checker.
func TestRecipesParse(t *testing.T) {
	webtest.Heavy(t, "installs and runs actionlint, tomll and yq")
	for _, tt := range []struct{ checker, file string }{
		{"actionlint", ".github/workflows/pages.yml"},
		{"tomll", "netlify.toml"},
		{"yq", "deploy/gitlab-ci.yml"},
	} {
		t.Run(tt.checker, func(t *testing.T) {
			bin := checker(t, tt.checker)
			args := []string{tt.file}
			switch tt.checker {
			case "actionlint":
				// shellcheck and pyflakes are checked when found; the run
				// lines are one make command, so the result must not
				// depend on the machine.
				args = []string{"-shellcheck=", "-pyflakes=", tt.file}
			case "tomll":
				data, err := os.ReadFile(tt.file)
				if err != nil {
					t.Fatal(err)
				}
				cmd := exec.Command(bin)
				cmd.Stdin = strings.NewReader(string(data))
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%s: %v\n%s", tt.file, err, out)
				}
				return
			case "yq":
				args = []string{"-e", ".pages.script[0]", tt.file}
			}
			if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
				t.Errorf("%s %s: %v\n%s", tt.checker, tt.file, err, out)
			}
		})
	}
}
