package alerts

import (
	"math/rand/v2"
	"path"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alertkit"
)

// segment is one list of an ack dialog: the ids it names, in order, and
// how many rows it stands for ("and N more" counted).
type segment struct {
	ids   []string
	total int
}

// listed reads what an ack dialog says it acts on: the rows on screen and,
// when included, the hidden marked rows.
func listed(t *testing.T, p *Pane, f views.FormMsg, include bool) []segment {
	t.Helper()
	read := func(v string) (s segment) {
		for _, l := range strings.Split(v, "\n") {
			if n, ok := strings.CutPrefix(l, "and "); ok {
				more, err := strconv.Atoi(strings.TrimSuffix(n, " more"))
				require.NoError(t, err, l)
				s.total += more
				continue
			}
			l = strings.TrimPrefix(l, "Acts on: ")
			id, _, _ := strings.Cut(strings.TrimPrefix(l, "• "), " ")
			s.ids = append(s.ids, id)
			s.total++
		}
		return s
	}
	var out []segment
	named := false
	for _, fd := range f.Fields {
		named = named || fd.Key == "targets"
		if fd.Key == "targets" || (fd.Key == "hiddenList" && include) {
			out = append(out, read(fd.Value))
		}
	}
	if !named {
		// One row on screen: the title names it.
		ack, ok := alertkit.AckOf(f.Action)
		require.True(t, ok, "the dialog's payload names its targets")
		require.Len(t, ack.Listed, 1)
		one := ack.Listed[0]
		require.Equal(t, "Acknowledge "+p.describe([]string{one}), f.Title)
		out = append([]segment{{ids: []string{one}, total: 1}}, out...)
	}
	return out
}

// Random marks (space, range, all visible, clear), filters, sorts, cursor
// moves and refreshes, then a bulk acknowledgement with the hidden rows
// included or not: the alerts written are exactly the ones the dialog
// listed, in its order, every time.
func TestBulkAckActsOnExactlyWhatItLists(t *testing.T) {
	e := newPaneEnv(t)
	e.P.SetSize(120, 60)
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
	acks, withHidden := 0, 0
	for seed := uint64(1); seed <= 60; seed++ {
		rng := rand.New(rand.NewPCG(seed, 14))
		for range 4 + rng.IntN(12) {
			switch n := rng.IntN(len(keys) + 5); {
			case n < len(keys):
				e.Send(keys[n])
			case n == len(keys), n == len(keys)+3, n == len(keys)+4:
				e.Send(views.FilterMsg{Text: filters[rng.IntN(len(filters))]})
			case n == len(keys)+1:
				e.Send(views.RefreshMsg{})
			default:
				e.Action(actStatus)
			}
		}
		if e.P.mode != modeList {
			e.Press("esc")
		}
		forms, mark := len(e.Forms), e.Sim.Mark()
		e.Action(actAck)
		if len(e.Forms) == forms {
			require.Empty(t, e.Sim.WritesSince(mark), "seed %d: refused, and nothing sent", seed)
			continue
		}
		f := e.Forms[len(e.Forms)-1]
		include := rng.IntN(2) == 0
		for _, fd := range f.Fields {
			if fd.Key == "hiddenList" {
				withHidden++
			}
		}
		want := listed(t, e.P, f, include)
		require.NoError(t, e.Submit(components.FormValues{"until": untilForever, "comment": "seed " + strconv.FormatUint(seed, 10),
			"hidden": strconv.FormatBool(include)}))
		var got []string
		for _, w := range e.Sim.WritesSince(mark) {
			require.True(t, strings.HasPrefix(w, "PATCH "), w)
			got = append(got, path.Base(w))
		}
		at := 0
		for _, seg := range want {
			require.GreaterOrEqual(t, len(got), at+seg.total, "seed %d: one write per listed alert", seed)
			require.Equal(t, seg.ids, got[at:at+len(seg.ids)], "seed %d: the named alerts, in the listed order", seed)
			at += seg.total
		}
		require.Len(t, got, at, "seed %d: nothing beyond what was listed", seed)
		acks++
	}
	require.Greater(t, acks, 10, "most sequences end in an acknowledgement")
	require.Greater(t, withHidden, 3, "and some with marked rows the filter hides")
}
