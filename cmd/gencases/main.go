// Command gencases writes a generated incidentlib library: a content folder
// with case files, vocab.json, site.json, topic introductions and the about
// page, for tests and benchmarks (see package internal/gencases).
//
//	go run ./cmd/gencases -n 10000 -seed 1 -out /tmp/lib
//
// The same -n and -seed always give byte-identical files. -out must not
// exist or be empty unless -force is given, which first removes what a
// previous run wrote there (cases/, topics/, pages/, vocab.json, site.json)
// and nothing else.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"incidentlib/internal/cases"
	"incidentlib/internal/gencases"
)

func main() {
	n := flag.Int("n", 1000, "number of cases")
	seed := flag.Uint64("seed", 1, "random seed; the same -n and -seed give the same library")
	out := flag.String("out", "", "content folder to write (required)")
	workers := flag.Int("workers", 0, "goroutines generating cases (0: one per CPU)")
	force := flag.Bool("force", false, "remove a previous generated library in -out first")
	quiet := flag.Bool("q", false, "do not print a summary")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gencases -n N [-seed S] -out DIR [-force] [-workers W] [-q]")
		os.Exit(2)
	}
	if *force {
		for _, name := range cases.ContentEntries {
			if err := os.RemoveAll(filepath.Join(*out, name)); err != nil {
				fmt.Fprintln(os.Stderr, "gencases:", err)
				os.Exit(1)
			}
		}
	}
	start := time.Now()
	if err := gencases.WriteDir(*out, gencases.Options{N: *n, Seed: *seed, Workers: *workers}); err != nil {
		fmt.Fprintln(os.Stderr, "gencases:", err)
		os.Exit(1)
	}
	if !*quiet {
		fmt.Printf("gencases: %d cases (seed %d) written to %s in %.2fs\n", *n, *seed, *out, time.Since(start).Seconds())
	}
}
