package triage

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// TestABoardFromTheLastStartsCopiesIsCheckedAtOnce: a start whose board
// comes from the last start's copies (apiclient.StartCopies) shows the
// same rows with no request, says its parts are cached and as old as the
// copies, and lists the projects again from the service as soon as that
// round is in; with the service failing, the rows stay, cached and stale.
func TestABoardFromTheLastStartsCopiesIsCheckedAtOnce(t *testing.T) {
	sim := viewstest.NewSim(t, viewstest.SimOptions{Gate: viewstest.GateWithRoles})
	ctx := sim.Context(Registration)
	client := ctx.Client
	client.UseStartCopies(apiclient.NewStartCopies(nil, string(ID), time.Hour, nil))
	first := New(ctx).(*Pane)
	first.SetSize(200, 40)
	viewstest.NewDriver(t, first).Run(first.SetVisible(true))
	want := len(first.Items())
	require.Positive(t, want)
	kept := client.StartCopies().Kept()
	require.NotEmpty(t, kept)
	copiedAt := kept[0].At

	client.UseStartCopies(apiclient.NewStartCopies(kept, string(ID), time.Hour, nil))
	sim.FailReads(func(string) bool { return true }) // the service is gone
	mark := sim.Mark()
	p := New(ctx).(*Pane)
	p.SetSize(200, 40)
	viewstest.NewDriver(t, p).Run(p.SetVisible(true))

	assert.Len(t, p.Items(), want, "the board from the copies")
	assert.Equal(t, len(kept), client.StartCopies().Given(), "every copy kept was given")
	h := p.Health()
	assert.True(t, h.Cached, "the header says cached")
	assert.False(t, h.OK.After(copiedAt.Add(time.Second)), "as old as the copies: %v, copied %v", h.OK, copiedAt)
	assert.NotEmpty(t, sim.RequestsSince(mark), "the board was checked with the service")
	assert.True(t, h.Stale() || p.projErr != nil, "the failed check is said")
}
