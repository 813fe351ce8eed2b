package mcpserver

import (
	"sync"
	"time"
)

// sessionBook keeps what the session caps need to know of each session of
// the HTTP server: which client address opened it and when it last had a
// request. The protocol server holds the sessions themselves.
//
// The rule: one address may hold a quarter of HTTPOptions.MaxSessions at
// most (429 beyond it), so that one client cannot lock everyone else out;
// when all are taken, the session idle the longest, if idle for
// reclaimAfter, is closed to make room (503 when none is); an initialize
// in a batch counts as one on its own.
type sessionBook struct {
	initMu sync.Mutex // one initialize at a time, so that the caps hold exactly
	mu     sync.Mutex
	owner  map[string]string    // session id → client address
	seen   map[string]time.Time // session id → last request
}

type admission int

const (
	admitted admission = iota
	tooManyForClient
	full
)

// perClient is the most sessions one address may hold.
func (b *sessionBook) perClient(maxSessions int) int { return max(1, maxSessions/4) }

// admit says whether client may open a session now, closing the idlest
// session when that makes room.
func (b *sessionBook) admit(s *Server, client string) admission {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.owner == nil {
		b.owner, b.seen = map[string]string{}, map[string]time.Time{}
	}
	live := map[string]bool{}
	total := 0
	var idlest string
	for ss := range s.mcp.Sessions() {
		id := ss.ID()
		live[id] = true
		total++
		if seen, ok := b.seen[id]; ok && (idlest == "" || seen.Before(b.seen[idlest])) {
			idlest = id
		}
	}
	mine := 0
	for id, who := range b.owner {
		switch {
		case !live[id]:
			delete(b.owner, id)
			delete(b.seen, id)
		case who == client:
			mine++
		}
	}
	if mine >= b.perClient(s.opt.HTTP.MaxSessions) {
		return tooManyForClient
	}
	if total < s.opt.HTTP.MaxSessions {
		return admitted
	}
	if idlest == "" || time.Since(b.seen[idlest]) < s.reclaimAfter {
		return full
	}
	for ss := range s.mcp.Sessions() {
		if ss.ID() == idlest {
			ss.Close()
		}
	}
	delete(b.owner, idlest)
	delete(b.seen, idlest)
	return admitted
}

// own records a session that client opened.
func (b *sessionBook) own(id, client string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.owner == nil {
		b.owner, b.seen = map[string]string{}, map[string]time.Time{}
	}
	b.owner[id], b.seen[id] = client, time.Now()
}

// touch records a request of a session.
func (b *sessionBook) touch(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.seen[id]; ok {
		b.seen[id] = time.Now()
	}
}
