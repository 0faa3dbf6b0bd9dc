// Restore jobs: cancelling one (the wizard starts them).

package backups

import (
	"context"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/views"
)

func (p *Pane) askCancel() tea.Cmd {
	r, _ := p.selectedRestore() // refusal made sure there is one, running
	p.Confirm(views.ConfirmMsg{Title: "Cancel restore " + short(r.ID) + "?",
		Body: fmt.Sprintf("The %s restore of %s to %s (job %s) stops; data already written to the target stays as it is.",
			r.Delivery, p.restoreOf(r), orDash(r.Target), r.ID),
		Action: views.ActionMsg{Name: keysOf(p.Ctx.Keys).CancelRestore.Name, Target: r.ID}})
	return nil
}

// restoreOf is what a restore job restores, in words: "snapshot
// …0000011f", or for a point-in-time one without a snapshot "payments-rs
// as of 2025-06-01 11:30:00 UTC" (or its oplog ts/inc).
func (p *Pane) restoreOf(r restoreRow) string {
	switch {
	case r.SnapshotID != "":
		return "snapshot " + short(r.SnapshotID)
	case r.PointInTime != 0:
		t := time.Unix(r.PointInTime, 0)
		return p.cluster.Name + " as of " + fmtUTC(&t)
	case r.OplogTs != 0:
		return fmt.Sprintf("%s as of oplog %d/%d", p.cluster.Name, r.OplogTs, r.OplogInc)
	}
	return p.cluster.Name
}

func orDash(s string) string {
	if s == "" {
		return "a download"
	}
	return s
}

func (p *Pane) cancelRestore(id string) tea.Cmd {
	client, gid, cl := p.Ctx.Client, p.Ctx.GroupID, *p.cluster
	return p.write("", "cancelling restore "+short(id), func(ctx context.Context) (writeResult, error) {
		if err := client.Backups().CancelRestoreJob(ctx, gid, cl.Name, id); err != nil {
			return writeResult{}, err
		}
		return writeResult{Done: "restore " + short(id) + " cancel requested"}, nil
	})
}

// elapsed is how long a restore has run (or ran). The server's clock may
// run ahead of ours (a sped-up demo): then time since this session first
// saw it running.
func (p *Pane) elapsed(r restoreRow, now time.Time) string {
	if r.Started == nil {
		return "-"
	}
	if r.Finished != nil {
		return fmtDur(r.Finished.Sub(*r.Started))
	}
	if !r.running() {
		return "-"
	}
	if now.Before(*r.Started) {
		if seen, ok := p.firstSeen[r.ID]; ok {
			return fmtDur(now.Sub(seen))
		}
		return "0s"
	}
	return fmtDur(now.Sub(*r.Started))
}
