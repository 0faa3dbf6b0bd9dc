package alerts_test

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// watched is the root with a look after each message it takes.
type watched struct {
	tea.Model
	after func(tea.Msg, tea.Model)
}

func (w *watched) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := w.Model.Update(msg)
	w.Model = m
	w.after(msg, m)
	return w, cmd
}

// `a` to the PATCH and back (ARCHITECTURE.md, "A key's way"): the form is
// open in the Update of `a`, its submit is delivered in the Update of
// enter, and the one message besides the keys that goes through the root
// is the write's answer, after which the form is closed and the alert
// acknowledged on the server.
func TestAckThroughTheRoot(t *testing.T) {
	w := newWorld(t)
	id, _ := raiseOwnAlert(t, w)
	d := newDriver(t, w, "org-owner", 120, 40)
	var msgs []string // what the program handed the root, keys and spinner frames aside
	d.Model = &watched{Model: d.Model, after: func(msg tea.Msg, _ tea.Model) {
		_, key := msg.(tea.KeyPressMsg)
		_, frame := msg.(spinner.TickMsg)
		if !key && !frame {
			msgs = append(msgs, fmt.Sprintf("%T", msg))
		}
	}}
	d.Press("a")
	require.Empty(t, msgs, "the form opened in the key's Update")
	require.Contains(t, d.Screen(), "Acknowledge until")
	d.Type("walked")
	mark := w.Mark()
	d.Press("enter")
	require.Len(t, w.WritesSince(mark), 1, "one PATCH")
	require.Len(t, msgs, 1, "only the write's answer went through the root: %v", msgs)
	assert.True(t, strings.HasPrefix(msgs[0], "views.Result["), msgs[0])
	assert.NotContains(t, d.Screen(), "Acknowledge until", "the form closed")
	assert.Equal(t, "walked", alertOf(t, w, id).AcknowledgementComment)
}
