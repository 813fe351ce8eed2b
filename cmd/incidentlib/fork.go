package main

import (
	"os/exec"
	"strings"
)

// upstreamBaseURL is base_url in the site.json this repository ships: the
// address of the original library. A fork that builds with it unchanged
// publishes canonical links, the sitemap, feeds and llms.txt that point
// readers and search engines at the original, not at the fork.
const upstreamBaseURL = "https://benchlet.com/incidentlib/"

// forkWarning returns the warning a build prints once when it looks like a
// fork publishing under the original's address, or "". The rule is simple
// on purpose: the base URL came from site.json (no -base-url) and is the
// original's, and the content folder's git remote "origin" names another
// repository than site.json's repository.url (an empty url names none).
// Without git, or without an origin, there is nothing to tell a fork by and
// the build says nothing.
func forkWarning(baseURL string, given bool, repoURL, origin string) string {
	if given || baseURL != upstreamBaseURL || origin == "" || sameRepo(origin, repoURL) {
		return ""
	}
	return "the base URL is the original library's, " + upstreamBaseURL + ", and this repository's origin is " + origin +
		": canonical links, the sitemap, the feeds and llms.txt send readers there. Set base_url in site.json, or build with -base-url (make build BASE_URL=https://you.example.org/)."
}

// gitOrigin returns the URL of the remote "origin" of the git repository
// that holds dir, or "" when there is none or no git.
func gitOrigin(dir string) string {
	out, err := exec.Command("git", "-C", dir, "remote", "get-url", "origin").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// sameRepo reports whether two repository addresses name the same
// repository, whether over https or ssh: https://github.com/o/r,
// git@github.com:o/r.git and ssh://git@github.com/o/r/ are one.
func sameRepo(a, b string) bool {
	norm := func(u string) string {
		u = strings.ToLower(strings.TrimSpace(u))
		if i := strings.Index(u, "://"); i >= 0 {
			u = u[i+3:]
		} else if at, rest, ok := strings.Cut(u, "@"); ok && !strings.Contains(at, "/") {
			u = strings.Replace(rest, ":", "/", 1)
		}
		if i := strings.Index(u, "@"); i >= 0 && i < strings.Index(u+"/", "/") {
			u = u[i+1:]
		}
		u = strings.TrimSuffix(strings.TrimSuffix(u, "/"), ".git")
		return u
	}
	return a != "" && b != "" && norm(a) == norm(b)
}
