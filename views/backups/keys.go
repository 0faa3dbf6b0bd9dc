// Keys: what the pane's own keys do, and what no longer holds after one.

package backups

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// settle drops what no longer holds, after a key (onKey), a view switch or
// new data: the notice of a refused action once the action would not be
// refused so any more (the snapshot completed, the cursor moved on), any
// other notice at the next key; and the root's error toasts with it, or
// when the compliance policy stops holding the row under the cursor (the
// key's refusal the root showed). Nothing true is dropped.
func (p *Pane) settle(onKey bool) {
	resolved := false
	if p.notice != "" {
		keep, cause := !onKey, true
		if p.noticeAct != "" {
			now := p.refusalText(keysOf(p.Ctx.Keys), p.noticeAct)
			keep = now == p.notice
			// Refused still, for another row: the line goes, the root's
			// toast naming the first row stays true (and clearing it would
			// race the refusal of a key typed right after this one).
			cause = now == ""
		}
		if !keep {
			p.notice, p.noticeAct, resolved = "", "", cause
			p.layout()
		}
	}
	// Only the hold on the same snapshot going resolves: a refusal names
	// its snapshot, and stays true when the cursor moves on. (Resolving
	// then also cleared the refusal of a key typed right after the move,
	// before the root heard of it: d after a move said nothing.)
	kept, keptID := p.keptHere(), ""
	if kept != "" {
		keptID = p.snaps.SelectedID()
	}
	if p.kept != "" && (kept == "" || keptID != p.keptID) {
		s, _ := p.selectedSnap()
		resolved = resolved || (kept == "" && s.ID == p.keptID)
	}
	p.kept, p.keptID = kept, keptID
	if resolved {
		p.ErrorsResolved()
	}
}

func (p *Pane) key(msg tea.KeyPressMsg) tea.Cmd {
	if p.cluster == nil {
		if msg.String() == "enter" {
			if id := p.picker.SelectedID(); id != "" {
				for _, c := range p.clusters {
					if c.Name == id {
						return p.open(c)
					}
				}
			}
			return nil
		}
		p.picker, _ = p.picker.Update(msg)
		return nil
	}
	switch msg.String() {
	case "esc": // see CanGoBack
		if p.detailOn() {
			p.closeDetail()
			p.settle(true)
			return nil
		}
		if p.notice != "" {
			p.notice, p.noticeAct = "", ""
			p.layout()
			p.ErrorsResolved()
			return nil
		}
		if p.Ctx.ClusterName == "" {
			// Back to the cluster list; watched jobs stay watched.
			p.cluster, p.loaded = nil, false
			return p.Arm()
		}
		return nil
	case "enter":
		if p.detailOn() {
			p.closeDetail()
			p.settle(true)
			return nil
		}
		// A sharded snapshot's row expands and collapses its members; a
		// member row, any other snapshot and a restore job open the detail.
		if p.view == viewSnapshots && !strings.Contains(p.snaps.SelectedID(), "/") {
			if s, ok := p.selectedSnap(); ok && s.Sharded {
				p.expanded[s.ID] = !p.expanded[s.ID]
				p.lists[viewSnapshots].fill()
				p.snaps.SetCursorID(s.ID)
				p.settle(true)
				return nil
			}
		}
		p.openDetail()
		p.settle(true)
		return nil
	}
	if p.detailOn() {
		var cmd tea.Cmd
		p.item, cmd = p.item.Update(msg)
		return cmd
	}
	var cmd tea.Cmd
	if l, ok := p.lists[p.view]; ok {
		*l.table, _ = l.table.Update(msg)
	} else {
		p.detail, cmd = p.detail.Update(msg)
	}
	p.settle(true)
	return cmd
}

// selectedSnap is the snapshot under the cursor; a member row stands for
// its sharded snapshot.
func (p *Pane) selectedSnap() (snapRow, bool) {
	id := p.snaps.SelectedID()
	if i := strings.IndexByte(id, '/'); i >= 0 {
		id = id[:i]
	}
	return p.data.snap(id)
}

func (p *Pane) selectedRestore() (restoreRow, bool) {
	return p.data.restore(p.restores.SelectedID())
}

// CanGoBack: a notice is shown; esc dismisses it before the root clears the
// list's filter.
func (p *Pane) CanGoBack() bool { return p.notice != "" || p.detailOn() }

// viewFor says which view an action moves to: tab the next, shift+tab the
// previous, a view's own key that view.
func (p *Pane) viewFor(k keys, name string) (view, bool) {
	switch name {
	case k.CycleViews.Name:
		return (p.view + 1) % viewCount, true
	case k.PrevView.Name:
		return (p.view + viewCount - 1) % viewCount, true
	}
	for v, a := range k.ViewKeys {
		if a.Name == name {
			return view(v), true
		}
	}
	return 0, false
}
