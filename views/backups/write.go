// Writes: sending a change, reading back one whose answer was lost, and
// the answer closing its form.

package backups

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// write sends a change; the answer closes or re-opens its form and starts
// watching what it created.
type writeResult struct {
	Form  string
	Done  string // toast on success
	Watch *watch
	// A lost answer: the write was sent and may have been applied. Verify
	// reads the resource back; the form stays frozen meanwhile and the
	// write is never sent again.
	Unknown bool
	Sent    time.Time
	Verify  verifyFn
}

// verifyFn reads back what a write whose answer was lost would have made:
// the result to report when it holds (applied), or applied false.
type verifyFn func(ctx context.Context, sent time.Time) (r writeResult, applied bool, err error)

func (p *Pane) write(form, task string, fn func(ctx context.Context) (writeResult, error)) tea.Cmd {
	return p.writeVerified(form, task, fn, nil)
}

// writeVerified is write for a create whose lost answer can be checked.
func (p *Pane) writeVerified(form, task string, fn func(ctx context.Context) (writeResult, error), verify verifyFn) tea.Cmd {
	return views.Write(&p.Base, keyWrite, p.seq.Next(), task, func(ctx context.Context) (writeResult, error) {
		r, err := fn(ctx)
		r.Form = form
		if ou, ok := apiclient.AsOutcomeUnknown(err); ok && verify != nil {
			return writeResult{Form: form, Unknown: true, Sent: ou.Sent, Verify: verify}, nil
		}
		return r, err
	})
}

// createVerified is writeVerified for a create answered with what it made:
// send makes it, verify looks for it after a lost answer, made says what
// was made, the same way for both.
func createVerified[T any](p *Pane, form, task string, send func(context.Context) (*T, error), verify func(context.Context, time.Time) (*T, bool, error), made func(*T) writeResult) tea.Cmd {
	return p.writeVerified(form, task, func(ctx context.Context) (writeResult, error) {
		v, err := send(ctx)
		if err != nil {
			return writeResult{}, err
		}
		return made(v), nil
	}, func(ctx context.Context, sent time.Time) (writeResult, bool, error) {
		v, ok, err := verify(ctx, sent)
		if !ok || err != nil {
			return writeResult{}, false, err
		}
		return made(v), true, nil
	})
}

// verifyWrite reads back a write whose answer was lost, a few times if the
// read itself fails, and answers with the verified outcome.
func (p *Pane) verifyWrite(res writeResult) tea.Cmd {
	return views.Get(&p.Base, keyWrite, p.seq.Next(), "checking what the server holds", func(ctx context.Context) (writeResult, error) {
		r, applied, err := res.Verify(ctx, res.Sent)
		r.Form = res.Form
		switch {
		case err != nil:
			return r, views.OutcomeStillUnknown(views.ErrText(err))
		case !applied:
			return r, errors.New(views.NotApplied)
		}
		if r.Done != "" {
			r.Done += " (verified after a lost answer)"
		}
		return r, nil
	})
}

func (p *Pane) writeResult(msg views.Result[writeResult]) tea.Cmd {
	res := msg.Value
	if res.Unknown && msg.Err == nil {
		if res.Form != "" {
			p.FormStatus(res.Form, views.OutcomeChecking)
		}
		p.Toast(views.OutcomeChecking, false)
		return p.verifyWrite(res)
	}
	if res.Form != "" {
		p.FormDone(res.Form, msg.Err)
	}
	if msg.Err != nil {
		if res.Form == "" {
			p.Refuse(views.ErrText(msg.Err))
		}
		return nil
	}
	p.notice, p.noticeAct = "", ""
	if res.Watch != nil {
		p.watching[res.Watch.ID] = *res.Watch
	}
	if res.Done != "" {
		p.Toast(res.Done, false)
	}
	return tea.Batch(p.loadData("", allParts, keyData), p.Arm())
}
