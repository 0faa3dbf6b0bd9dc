package alerts

import (
	"math/rand/v2"
	"path"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// listed reads what an ack dialog says it acts on: the ids it names in
// order, and how many it counts past them ("and N more"), for the rows on
// screen and, when included, the hidden marked rows.
func listed(t *testing.T, p *Pane, f views.FormMsg, include bool) (ids []string, total int) {
	t.Helper()
	read := func(v string) {
		for _, l := range strings.Split(v, "\n") {
			if n, ok := strings.CutPrefix(l, "and "); ok {
				more, err := strconv.Atoi(strings.TrimSuffix(n, " more"))
				require.NoError(t, err, l)
				total += more
				continue
			}
			id, _, _ := strings.Cut(strings.TrimPrefix(l, "• "), " ")
			ids = append(ids, id)
			total++
		}
	}
	var seen bool
	for _, fd := range f.Fields {
		switch {
		case fd.Key == "targets":
			read(fd.Value)
			seen = true
		case fd.Key == "hiddenList" && include:
			read(fd.Value)
		}
	}
	if !seen {
		// One row: the title names it.
		one, _, _ := strings.Cut(f.Action.Target, hiddenSeparator)
		require.Equal(t, "Acknowledge "+p.describe([]string{one}), f.Title)
		ids, total = append([]string{one}, ids...), total+1
	}
	return ids, total
}

// Random marks (space, range, all visible, clear), filters, sorts, cursor
// moves and refreshes, then a bulk acknowledgement with the hidden rows
// included or not: the alerts written are exactly the ones the dialog
// listed, in its order, every time.
func TestBulkAckActsOnExactlyWhatItLists(t *testing.T) {
	e := newPaneEnv(t)
	e.p.SetSize(120, 60)
	filters := []string{"", "", "NO_PRIMARY", "payments-rs", "OUTSIDE", "!OPEN", "CPS", "zzz"}
	keys := []tea.KeyPressMsg{
		{Code: tea.KeySpace, Text: " "},
		{Code: tea.KeySpace, Mod: tea.ModCtrl},
		{Code: 'a', Mod: tea.ModCtrl},
		{Code: '\\', Mod: tea.ModCtrl},
		{Code: 'o', Text: "o"},
		{Code: 'O', Text: "O"},
		{Code: tea.KeyDown}, {Code: tea.KeyDown}, {Code: tea.KeyUp},
		{Code: tea.KeyPgDown},
	}
	acks := 0
	for seed := uint64(1); seed <= 30; seed++ {
		rng := rand.New(rand.NewPCG(seed, 14))
		for range 4 + rng.IntN(12) {
			switch n := rng.IntN(len(keys) + 3); {
			case n < len(keys):
				e.Send(keys[n])
			case n == len(keys):
				e.Send(views.FilterMsg{Text: filters[rng.IntN(len(filters))]})
			case n == len(keys)+1:
				e.Send(views.RefreshMsg{})
			default:
				e.Action(actStatus)
			}
		}
		if e.p.mode != modeList {
			e.Press("esc")
		}
		forms, mark := len(e.Forms), e.sim.Mark()
		e.Action(actAck)
		if len(e.Forms) == forms {
			require.Empty(t, e.sim.WritesSince(mark), "seed %d: refused, and nothing sent", seed)
			continue
		}
		f := e.Forms[len(e.Forms)-1]
		include := rng.IntN(2) == 0
		want, total := listed(t, e.p, f, include)
		require.NoError(t, e.Submit(components.FormValues{"until": untilForever, "comment": "seed " + strconv.FormatUint(seed, 10),
			"hidden": strconv.FormatBool(include)}))
		var got []string
		for _, w := range e.sim.WritesSince(mark) {
			require.True(t, strings.HasPrefix(w, "PATCH "), w)
			got = append(got, path.Base(w))
		}
		require.Len(t, got, total, "seed %d: one write per listed alert", seed)
		require.Equal(t, want, got[:len(want)], "seed %d: the named alerts, in the listed order", seed)
		acks++
	}
	require.Greater(t, acks, 10, "most sequences end in an acknowledgement")
}
