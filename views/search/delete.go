package search

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// confirmDelete asks for the index's name to be typed; the confirmation
// names the index as an indexRef.
func (p *Pane) confirmDelete() tea.Cmd {
	ix, cluster, ok := p.selectedIndex()
	if !ok {
		p.Toast("delete: select an index first", true)
		return nil
	}
	name := components.Sanitize(ix.Name)
	p.Confirm(views.ConfirmMsg{Title: "Delete search index " + name + "?",
		Body: fmt.Sprintf("%s.%s on %s. Queries that use it fail once it is gone; this cannot be undone.",
			components.Sanitize(ix.Database), components.Sanitize(ix.CollectionName), cluster),
		TypeToConfirm: ix.Name,
		Action: views.ActionMsg{Name: actDelete, Target: ix.IndexID,
			Payload: indexRef{Cluster: cluster, ID: ix.IndexID}}})
	return nil
}

// indexRef is the index a delete confirmation names.
type indexRef struct{ Cluster, ID string }

func (p *Pane) deleteIndex(msg views.ActionMsg) tea.Cmd {
	ref, ok := msg.Payload.(indexRef)
	client, gid := p.Ctx.Client, p.Ctx.GroupID
	if !ok {
		p.Refuse("delete: the confirmation named no index; nothing deleted")
		return nil
	}
	if client == nil {
		return nil
	}
	cluster, id := ref.Cluster, ref.ID
	p.deleting[id] = true
	p.rebuild()
	return views.Write(&p.Base, keyDelete, p.seq.Next(), "deleting index", func(ctx context.Context) (string, error) {
		return id, client.Search().Delete(ctx, gid, cluster, id)
	})
}

// deleteDone: a refused delete is said and the index is shown as it is;
// an accepted one shows DELETING until the list no longer has it.
func (p *Pane) deleteDone(msg views.Result[string]) tea.Cmd {
	id := msg.Value
	if msg.Err != nil {
		delete(p.deleting, id)
		p.say("delete failed: " + views.ErrText(msg.Err))
		p.rebuild()
		p.Toast(p.notice, true)
		return nil
	}
	p.Toast("delete requested: the index shows DELETING until it is gone", false)
	return tea.Batch(p.load(""), p.Arm())
}
