package backups

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// press sends keys to a form as the dialog would: names of special keys,
// any other string typed a rune at a time.
func press(f components.Form, keys ...string) components.Form {
	for _, k := range keys {
		var msgs []tea.KeyPressMsg
		switch k {
		case "tab":
			msgs = append(msgs, tea.KeyPressMsg{Code: tea.KeyTab})
		case "down":
			msgs = append(msgs, tea.KeyPressMsg{Code: tea.KeyDown})
		case "right":
			msgs = append(msgs, tea.KeyPressMsg{Code: tea.KeyRight})
		case "left":
			msgs = append(msgs, tea.KeyPressMsg{Code: tea.KeyLeft})
		default:
			for _, r := range k {
				m := tea.KeyPressMsg{Code: r, Text: string(r)}
				if r == ' ' {
					m.Code = tea.KeySpace
				}
				msgs = append(msgs, m)
			}
		}
		for _, m := range msgs {
			f, _ = f.Update(m)
		}
	}
	return f
}

// pitStep2 opens the wizard on a point-in-time restore to staging and
// returns step 2's form as the root's dialog draws it.
func pitStep2(t *testing.T, h *harness) (views.FormMsg, components.Form) {
	t.Helper()
	h.P.snaps.SetCursor(3)
	h.ActionKey("R")
	require.NoError(t, h.Submit(components.FormValues{"delivery": "pointInTime", "project": "staging"}))
	m := h.Forms[len(h.Forms)-1]
	require.Equal(t, formTarget, m.ID)
	f := components.NewForm(m.ID, m.Title, m.Fields, nil, themes.MustGet(themes.Mono), keymap.Default())
	f.SetSize(100, 40)
	return m, f
}

// Issue 24: a date typed into "Point in time" while oplog is chosen
// selects date-time (it was shown and not sent); oplog ts typed while
// date-time is chosen selects oplog. Step 2 states what enter sends, step
// 3 names the request's fields and values, and the job apisim holds has
// exactly them.
func TestPointInTimeTypedIsWhatIsSent(t *testing.T) {
	t.Run("a date typed under oplog", func(t *testing.T) {
		w := newWorld(t)
		h := newHarness(t, w, "payments-rs", 120, 24)
		m, f := pitStep2(t, h)
		// The first eligible target, then oplog on the radio, then the date.
		f = press(f, "down", "tab", "right")
		require.Equal(t, pitOplog, f.Values()["mode"])
		f = press(f, "tab", "2025-06-01 11:30:00")
		v := f.Values()
		assert.Equal(t, pitDateTime, v["mode"], "typing a date selects date-time")
		view := flat(f.View())
		assert.Contains(t, view, "sends pointInTimeUTCSeconds 1748777400 (2025-06-01 11:30:00 UTC)")

		require.NoError(t, submitForm(h, m, v))
		c := h.LastConfirm()
		assert.Contains(t, c.Body, "payments-rs as of 2025-06-01 11:30:00 UTC")
		assert.Contains(t, c.Body, "sends pointInTimeUTCSeconds 1748777400 (2025-06-01 11:30:00 UTC)")
		mark := w.Mark()
		h.Confirm("staging-rs")
		require.Len(t, w.WritesSince(mark), 1)
		j := lastJob(t, w)
		assert.Equal(t, int64(1748777400), j.PointInTimeUTCSeconds)
		assert.Zero(t, j.OplogTs)
	})
	t.Run("oplog typed under date-time", func(t *testing.T) {
		w := newWorld(t)
		h := newHarness(t, w, "payments-rs", 120, 24)
		m, f := pitStep2(t, h)
		// A date typed first (date-time), then oplog ts and inc typed:
		// oplog is selected, and the date is said not to be sent.
		f = press(f, "down", "tab", "tab", "2025-06-01 11:30:00", "tab", "1748777000", "tab", "7")
		v := f.Values()
		assert.Equal(t, pitOplog, v["mode"], "typing oplog ts selects oplog")
		view := flat(f.View())
		assert.Contains(t, view, "sends oplogTs 1748777000, oplogInc 7")
		assert.Contains(t, view, "not sent: "+pitOplog+" is selected")

		require.NoError(t, submitForm(h, m, v))
		c := h.LastConfirm()
		assert.Contains(t, c.Body, "as of oplog 1748777000/7")
		assert.Contains(t, c.Body, "sends oplogTs 1748777000, oplogInc 7")
		h.Confirm("staging-rs")
		j := lastJob(t, w)
		assert.Equal(t, int64(1748777000), j.OplogTs)
		assert.Equal(t, int64(7), j.OplogInc)
		assert.Zero(t, j.PointInTimeUTCSeconds)
	})
	t.Run("typed on the radio goes to the chosen mode's field", func(t *testing.T) {
		w := newWorld(t)
		h := newHarness(t, w, "payments-rs", 120, 24)
		_, f := pitStep2(t, h)
		f = press(f, "down", "tab", "right", "1748777000")
		v := f.Values()
		assert.Equal(t, pitOplog, v["mode"])
		assert.Equal(t, "1748777000", v["oplogTs"])
		assert.Empty(t, v["when"])
	})
}

// submitForm submits step 2 with the form's values, as the root does.
func submitForm(h *harness, m views.FormMsg, v components.FormValues) error {
	h.Forms = append(h.Forms, m)
	return h.Submit(v)
}

// lastJob is the one point-in-time restore job of payments-rs onto
// staging-rs that apisim holds.
func lastJob(t *testing.T, w *viewstest.Sim) apiclient.RestoreJob {
	t.Helper()
	jobs, err := w.Client.Backups().AllRestoreJobs(context.Background(), apisim.DemoPaymentsID, "payments-rs")
	require.NoError(t, err)
	var out []apiclient.RestoreJob
	for _, j := range jobs {
		if j.DeliveryType == apiclient.DeliveryPointInTime && j.TargetClusterName == "staging-rs" {
			out = append(out, j)
		}
	}
	require.Len(t, out, 1)
	return out[0]
}

// flat is a dialog's text without its frame, its lines joined.
func flat(view string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(view), "│", " ")), " ")
}
