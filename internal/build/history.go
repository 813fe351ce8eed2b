package build

import (
	"context"

	"incidentlib/internal/cases"
	"incidentlib/internal/history"
)

// The values of Options.History.
const (
	HistoryOff = "off" // the changes list comes from each case's updated_at
	HistoryGit = "git" // from the content's git history, when git can give it
)

// pendingHistory is the content's git history, read alongside the loading.
type pendingHistory struct {
	done    chan struct{}
	log     *history.Log
	warning string // why the history is not used, in one line; "" when it is
}

// startHistory starts reading the content's git history when opt asks for
// it; nil when it does not.
func startHistory(ctx context.Context, opt Options) *pendingHistory {
	if opt.History != HistoryGit {
		return nil
	}
	p := &pendingHistory{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		l, err := history.Read(ctx, history.Options{Dir: opt.Content, Cases: cases.CasesDir, Timeout: opt.HistoryTimeout})
		if err != nil {
			p.warning = "-history git: " + err.Error() + "; the changes list comes from each case's updated_at instead"
			return
		}
		p.log = l
	}()
	return p
}

// wait returns the history once read, or nil when it is not to be used.
func (p *pendingHistory) wait() *history.Log {
	<-p.done
	return p.log
}

// libraryOption is the function library.Options.History takes: nil when
// no history was asked for.
func (p *pendingHistory) libraryOption() func() *history.Log {
	if p == nil {
		return nil
	}
	return p.wait
}
