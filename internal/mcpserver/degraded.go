package mcpserver

import (
	"strings"
	"sync/atomic"

	"incidentlib/internal/l10n"
)

// Serving the last good library. A save that breaks the content must not
// take a hosted server down: the tools, resources and /healthz answer from
// the last model that loaded (model.good), with a note on every answer
// that the library is degraded, until a save fixes the files. Only a
// server whose content never loaded has nothing to answer from: its tools
// report the errors and /healthz answers 503.
//
// Public clients never see a filesystem path: over HTTP the errors are
// counted, not listed (the server's log lists them with their files); over
// stdio the client is the author's own tool on the author's machine, and
// the list helps fix the files.

// lastGood returns the model to answer from for m: m itself when it
// loaded, else the last one that did (nil when none ever did).
func (m *model) lastGood() *model {
	if m.site != nil {
		return m
	}
	return m.good
}

// serving returns the model to answer from and how many errors the
// current content has that it does not show (0 when it is current).
func (s *Server) serving() (m *model, errs int) {
	cur := s.live.Current()
	good := cur.lastGood()
	if good == cur {
		return cur, 0
	}
	return good, max(1, cur.diags.Errors())
}

// overHTTP is set once the server serves HTTP: its answers then name no
// file of the server.
type overHTTP struct{ atomic.Bool }

// contentErrors is the tool error of a server whose content never loaded:
// over HTTP the count alone, over stdio the folder and the first errors.
func (s *Server) contentErrors(c *call, cur *model) error {
	n := cur.diags.Errors()
	var b strings.Builder
	if s.public.Load() {
		if n == 1 {
			return c.fail("err.content_hidden.one")
		}
		return c.fail("err.content_hidden.other", l10n.Number(n))
	}
	if n == 1 {
		b.WriteString(c.t("err.content.one", s.opt.Content))
	} else {
		b.WriteString(c.t("err.content.other", s.opt.Content, l10n.Number(n)))
	}
	k := 0
	for _, d := range cur.diags.Items {
		if d.Warning {
			continue
		}
		if k++; k > 10 {
			b.WriteString("\n…")
			break
		}
		b.WriteString("\n" + d.String())
	}
	return userError(b.String())
}
