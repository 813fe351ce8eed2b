package site

import (
	"io"

	"incidentlib/internal/cases"
	"incidentlib/internal/library"
)

// Extra is a part of the site written outside the page jobs, such as the
// search index or the JSON API: the build writes the extras beside the
// pages, the preview makes them on first request. Package build lists the
// standard ones (build.StandardExtras).
//
// An extra that needs only the content and its topics sets Library
// instead of Write: a build starts it as soon as the content has loaded
// (library.Options.Loaded), alongside the deriving of the rest.
type Extra struct {
	Name    string
	Write   func(s *Site, write func(path string, data []byte) error) error
	Library func(lib *cases.Library, topics library.Topics, offline bool, write func(path string, data []byte) error) error
	// Stream, when set, is what a build calls instead of Write: create
	// opens a file to be written piece by piece, whole once closed, for
	// files too large to hold in memory (the API's downloads). The preview
	// calls Write.
	Stream func(s *Site, write func(path string, data []byte) error, create func(path string) (io.WriteCloser, error)) error
}

// Run writes the extra from s.
func (e Extra) Run(s *Site, write func(path string, data []byte) error) error {
	if e.Library != nil {
		return e.Library(s.lib, s.topics, s.Offline(), write)
	}
	return e.Write(s, write)
}
