// Package incidentlib carries the default templates and static files of the
// site inside the binary. Commands use these unless a flag points at folders
// on disk, so a site owner can override a template without recompiling.
package incidentlib

import (
	"embed"
	"io/fs"
)

//go:embed templates
var templates embed.FS

//go:embed static
var static embed.FS

// Templates returns the embedded templates folder.
func Templates() fs.FS { return sub(templates, "templates") }

// Static returns the embedded static folder.
func Static() fs.FS { return sub(static, "static") }

func sub(f embed.FS, dir string) fs.FS {
	s, err := fs.Sub(f, dir)
	if err != nil {
		panic(err) // the folder is embedded at compile time; it is always there
	}
	return s
}
