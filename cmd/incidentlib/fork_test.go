package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestForkWarning(t *testing.T) {
	const mine = "https://github.com/someone/incidentlib"
	for _, tt := range []struct {
		name         string
		base         string
		given        bool
		repo, origin string
		want         bool
	}{
		{"a fork with the shipped site.json", upstreamBaseURL, false, "", "git@github.com:someone/incidentlib.git", true},
		{"a fork that named its repository but kept the address", upstreamBaseURL, false, mine, "git@github.com:other/incidentlib.git", true},
		{"the original's own clone", upstreamBaseURL, false, mine, "git@github.com:someone/incidentlib.git", false},
		{"the same over https", upstreamBaseURL, false, mine, mine + ".git", false},
		{"the same over ssh://", upstreamBaseURL, false, mine + "/", "ssh://git@github.com/someone/incidentlib", false},
		{"an address of its own", "https://incidents.example.org/", false, "", "git@github.com:someone/incidentlib.git", false},
		{"the address given on the command line", upstreamBaseURL, true, "", "git@github.com:someone/incidentlib.git", false},
		{"no git remote", upstreamBaseURL, false, "", "", false},
	} {
		if got := forkWarning(tt.base, tt.given, tt.repo, tt.origin) != ""; got != tt.want {
			t.Errorf("%s: warns %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestUpstreamBaseURLShipped: the constant is the base_url of the shipped
// site.json, so that a change of address there cannot silence the warning.
func TestUpstreamBaseURLShipped(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "content", "site.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		BaseURL string `json:"base_url"`
	}
	if err := json.Unmarshal(b, &s); err != nil || s.BaseURL != upstreamBaseURL {
		t.Errorf("site.json's base_url is %q (%v), upstreamBaseURL %q", s.BaseURL, err, upstreamBaseURL)
	}
}
