// Watches: the jobs this session started, followed until they end.

package backups

import (
	"context"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// watch is a job this session started; the pane follows it until it ends,
// even while another pane is on screen.
type watch struct {
	Kind    string // "restore", "snapshot", "export"
	ID      string
	Cluster clusterRef
	Label   string // "restore of snapshot …0021 to staging-rs"
}

// watchResult is one hidden-pane check of a watched job.
type watchResult struct {
	W       watch
	Done    bool
	Outcome string // the toast when Done
	Failed  bool
}

// checkWatch fetches one watched job; it runs on a Cmd's goroutine.
func checkWatch(ctx context.Context, c *apiclient.Client, gid string, w watch, now time.Time) (watchResult, error) {
	b := c.Backups()
	rt, _ := routeFor(w.Cluster.Kind, now)
	res := watchResult{W: w}
	switch w.Kind {
	case "restore":
		var r restoreRow
		switch rt {
		case routeFlex:
			j, err := b.FlexRestoreJob(ctx, gid, w.Cluster.Name, w.ID)
			if err != nil {
				return res, err
			}
			r = flexRestoreRow(*j)
		default:
			get := b.RestoreJob
			if rt == routeServerless {
				get = b.ServerlessRestoreJob
			}
			j, err := get(ctx, gid, w.Cluster.Name, w.ID)
			if err != nil {
				return res, err
			}
			r = restoreRowOf(*j)
		}
		res.Done = !r.running()
		res.Outcome, res.Failed = restoreOutcome(w.Label, r)
	case "snapshot":
		var st string
		var done bool
		switch {
		case rt == routeFlex:
			s, err := b.FlexSnapshot(ctx, gid, w.Cluster.Name, w.ID)
			if err != nil {
				return res, err
			}
			st, done = strings.ToLower(string(s.Status)), s.Done()
		case w.Cluster.Kind == kindSharded:
			s, err := b.ShardedSnapshot(ctx, gid, w.Cluster.Name, w.ID)
			if err != nil {
				return res, err
			}
			st, done = string(s.Status), s.Done()
		default:
			s, err := b.Snapshot(ctx, gid, w.Cluster.Name, w.ID)
			if err != nil {
				return res, err
			}
			st, done = string(s.Status), s.Done()
		}
		res.Done = done
		res.Outcome, res.Failed = w.Label+" "+st, st == string(apiclient.SnapshotFailed)
	case "export":
		j, err := b.ExportJob(ctx, gid, w.Cluster.Name, w.ID)
		if err != nil {
			return res, err
		}
		res.Done = j.Done()
		res.Outcome, res.Failed = w.Label+" "+strings.ToLower(string(j.State)), j.State != apiclient.ExportSuccessful
	}
	return res, nil
}

// restoreOutcome is the toast for a restore that ended.
func restoreOutcome(label string, r restoreRow) (string, bool) {
	switch r.State {
	case apiclient.RestoreFinished:
		return label + " finished", false
	case apiclient.RestoreDownloadReady:
		return label + ": download ready", false
	}
	return label + " " + string(r.State), true
}

// watchingHere reports whether a job of that kind on the cluster shown is
// watched.
func (p *Pane) watchingHere(kind string) bool {
	for _, w := range p.watching {
		if w.Kind == kind && p.cluster != nil && w.Cluster.Name == p.cluster.Name {
			return true
		}
	}
	return false
}

func (p *Pane) checkWatch(w watch) tea.Cmd {
	client, gid, now := p.Ctx.Client, p.Ctx.GroupID, p.Ctx.Now()
	if client == nil {
		return nil
	}
	return views.Load(&p.Base, keyWatch, p.seq.Next(), "", func(ctx context.Context) (watchResult, error) {
		return checkWatch(ctx, client, gid, w, now)
	})
}

// settleWatches ends the watches of the shown cluster whose jobs ended and
// says what each toast is to say.
func (p *Pane) settleWatches() []views.ToastMsg {
	var ended []views.ToastMsg
	for id, w := range p.watching {
		if w.Cluster.Name != p.cluster.Name {
			continue
		}
		switch w.Kind {
		case "restore":
			for _, r := range p.data.Restores {
				if r.ID == id && !r.running() {
					text, failed := restoreOutcome(w.Label, r)
					ended = append(ended, views.ToastMsg{Text: text, Err: failed})
					delete(p.watching, id)
				}
			}
		case "snapshot":
			for _, s := range p.data.Snaps {
				if s.ID == id && s.Done {
					ended = append(ended, views.ToastMsg{Text: w.Label + " " + s.Status, Err: !s.Completed})
					delete(p.watching, id)
				}
			}
		case "export":
			for _, e := range p.data.Exports {
				if e.ID == id && e.Done() {
					ended = append(ended, views.ToastMsg{Text: w.Label + " " + string(e.State), Err: e.State != apiclient.ExportSuccessful})
					delete(p.watching, id)
				}
			}
		}
	}
	return ended
}

func (p *Pane) watchResult(msg views.Result[watchResult]) tea.Cmd {
	res := msg.Value
	if msg.Err != nil {
		if e, ok := apiclient.AsError(msg.Err); ok {
			if e.Status == 404 {
				// The job is gone: nothing left to watch.
				delete(p.watching, res.W.ID)
				p.Refuse(res.W.Label + ": no longer found")
				return p.Arm()
			}
		}
		return nil
	}
	if _, ok := p.watching[res.W.ID]; !ok || !res.Done {
		return nil
	}
	delete(p.watching, res.W.ID)
	p.Toast(res.Outcome, res.Failed)
	var cmds []tea.Cmd
	if p.Visible() && p.cluster != nil && p.cluster.Name == res.W.Cluster.Name {
		cmds = append(cmds, p.loadData("", allParts, keyData))
	}
	cmds = append(cmds, p.Arm())
	return tea.Batch(cmds...)
}
