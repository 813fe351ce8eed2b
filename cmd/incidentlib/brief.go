package main

import (
	"fmt"
	"io"

	"incidentlib/internal/diag"
)

// printBrief prints what a build shows of its problems: every error, the
// first diag.ShownWarnings warnings, and the others counted by kind (check
// lists them all).
func printBrief(w io.Writer, list diag.List, content string) {
	shown, more := list.Brief(diag.ShownWarnings)
	printDiags(w, shown, content)
	if more != "" {
		fmt.Fprintln(w, more)
	}
}
