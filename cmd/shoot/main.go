// Command shoot takes full-page screenshots of pages at a desktop size
// (1280x900) and a phone size (390x844, mobile emulation), for looking at
// the site's layout during development:
//
//	go run ./cmd/shoot -out /tmp/shots http://localhost:8080/en/ public/ko/index.html
//
// An argument that is not a URL but a file on disk is opened as a file://
// URL. Each page gives SLUG-desktop.png and SLUG-phone.png in the -out
// folder, SLUG being the URL's path. -media print lays the pages out for
// paper and -scheme dark in the dark colour scheme; the names then end in
// -print or -dark. -click SELECTOR clicks every element the CSS selector
// matches once the page has loaded (and waited -wait), then waits -wait
// again, to show folded parts opened; the names then end in -clicked. It
// starts Chromium exactly as the tests
// do (internal/webtest) and exits non-zero if any page failed.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"incidentlib/internal/urls"
	"incidentlib/internal/webtest"
)

func main() {
	out := flag.String("out", "shots", "folder to write the PNG files to")
	media := flag.String("media", "", "emulate this CSS media type, such as print")
	scheme := flag.String("scheme", "", "emulate this colour scheme: dark or light")
	wait := flag.Duration("wait", 0, "wait this long after a page loads before the screenshot, for what its scripts draw later (search results)")
	click := flag.String("click", "", "click every element this CSS `selector` matches after the page loads and -wait, then wait -wait again (to open folded parts)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: shoot [-out DIR] [-media print] [-scheme dark] [-wait 2s] [-click SELECTOR] URL...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*out, *media, *scheme, *wait, *click, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "shoot:", err)
		os.Exit(1)
	}
}

func run(out, media, scheme string, wait time.Duration, click string, args []string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	profile, err := os.MkdirTemp("", "shoot-profile-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(profile)
	ctx, stop, err := webtest.StartBrowser(context.Background(), profile)
	if err != nil {
		return err
	}
	defer stop()
	if err := webtest.EmulateMedia(ctx, media, scheme); err != nil {
		return err
	}
	suffix := ""
	for _, s := range []string{media, scheme} {
		if s != "" {
			suffix += "-" + s
		}
	}
	if click != "" {
		suffix += "-clicked"
	}

	sizes := []struct {
		name string
		vp   webtest.Viewport
	}{{"desktop", webtest.Desktop}, {"phone", webtest.Phone}}
	used := map[string]int{}
	failed := 0
	for _, arg := range args {
		u, err := pageURL(arg)
		if err != nil {
			fmt.Fprintln(os.Stderr, "shoot:", err)
			failed++
			continue
		}
		name := slug(u)
		// Two URLs with the same path (two hosts, or a repeated argument)
		// must not overwrite each other's pictures.
		if used[name]++; used[name] > 1 {
			name = fmt.Sprintf("%s-%d", name, used[name])
		}
		for _, s := range sizes {
			png, err := webtest.CaptureClicked(ctx, u, s.vp, wait, click)
			if err != nil {
				fmt.Fprintln(os.Stderr, "shoot:", err)
				failed++
				continue
			}
			file := filepath.Join(out, name+"-"+s.name+suffix+".png")
			if err := os.WriteFile(file, png, 0o644); err != nil {
				return err
			}
			fmt.Println(file)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d screenshot(s) failed", failed)
	}
	return nil
}

// pageURL returns arg if it is a URL, or the file:// URL of arg if it names
// a file or a folder (its index.html) on disk.
func pageURL(arg string) (string, error) {
	if u, err := url.Parse(arg); err == nil && u.Scheme != "" && u.Host+u.Opaque+u.Path != "" && len(u.Scheme) > 1 {
		return arg, nil
	}
	fi, err := os.Stat(arg)
	if err != nil {
		return "", fmt.Errorf("%q is neither a URL nor a file: %v", arg, err)
	}
	if fi.IsDir() {
		arg = filepath.Join(arg, urls.IndexFile)
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		return "", err
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(), nil
}

var nonSlug = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// slug names the pictures of a page after its path: /en/cases/IL-0495/ is
// en-cases-IL-0495, the root is "index".
func slug(raw string) string {
	u, err := url.Parse(raw)
	p := raw
	if err == nil {
		p = u.Path
		if u.Scheme == "file" {
			p = strings.TrimSuffix(urls.Page(p), "/")
			p = filepath.Base(filepath.Dir(p)) + "-" + filepath.Base(p)
		}
	}
	p = urls.Page(p)
	s := strings.Trim(nonSlug.ReplaceAllString(p, "-"), "-.")
	if s == "" {
		return "index"
	}
	return s
}
