// Command fixparticles attaches Korean particles written apart from the word
// before them ("HubSpot 의" becomes "HubSpot의", "03:30 UTC 였다" becomes
// "03:30 UTC였다"), the places incidentlib check warns about.
//
//	go run ./cmd/fixparticles [-n] [PATH ...]
//
// Each PATH is a file or a folder, walked for .json and .md files; the
// default is content and templates/strings.json. In a JSON file only the
// insides of strings change, in Markdown the whole text; every other byte
// stays as it was, and a file with nothing to fix is not written. A JSON
// file that does not parse is left alone and named. Running it again
// changes nothing. -n lists what would change without writing.
package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"incidentlib/internal/cases"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("fixparticles", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dry := fl.Bool("n", false, "list the files that would change, and how many places, without writing")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: fixparticles [-n] [PATH ...]  (default: content templates/strings.json)")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return 2
	}
	paths := fl.Args()
	if len(paths) == 0 {
		paths = []string{"content", filepath.Join("templates", "strings.json")}
	}
	status, files, places := 0, 0, 0
	for _, root := range paths {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if path != root && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".json") && !strings.HasSuffix(path, ".md") {
				return nil
			}
			n, err := fixFile(path, *dry)
			switch {
			case err != nil:
				fmt.Fprintf(stderr, "fixparticles: %v\n", err)
				status = 1
			case n > 0:
				files++
				places += n
				fmt.Fprintf(stdout, "%s: %d\n", path, n)
			}
			return nil
		})
		if err != nil {
			fmt.Fprintf(stderr, "fixparticles: %v\n", err)
			status = 1
		}
	}
	verb := "attached"
	if *dry {
		verb = "would attach"
	}
	fmt.Fprintf(stdout, "fixparticles: %s %d particles in %d files\n", verb, places, files)
	return status
}

// fixFile closes the gaps of one file and returns how many there were.
func fixFile(path string, dry bool) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	src := string(b)
	var out string
	var n int
	if strings.HasSuffix(path, ".json") {
		out, n = cases.FixParticlesJSON(src)
		if n < 0 {
			return 0, fmt.Errorf("%s: not valid JSON, left as it is (incidentlib check says where)", path)
		}
	} else {
		out = cases.AttachParticles(src)
		n = len(cases.FindParticleGaps(src))
	}
	if n == 0 || dry {
		return n, nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	// Write beside the file and rename over it, so that a failed write
	// leaves the file as it was.
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return 0, err
	}
	if _, err := tmp.WriteString(out); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return 0, err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return 0, err
	}
	if err := os.Chmod(tmp.Name(), info.Mode().Perm()); err != nil {
		os.Remove(tmp.Name())
		return 0, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return 0, err
	}
	return n, nil
}
