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

// seen records the messages the program hands the root, keys and the
// task line's spinner frames aside.
type seen struct {
	tea.Model
	msgs []string
}

func (s *seen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, key := msg.(tea.KeyPressMsg)
	_, frame := msg.(spinner.TickMsg)
	if !key && !frame {
		s.msgs = append(s.msgs, fmt.Sprintf("%T", msg))
	}
	m, cmd := s.Model.Update(msg)
	s.Model = m
	return s, cmd
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
	s := &seen{Model: d.Model}
	d.Model = s
	d.Press("a")
	require.Empty(t, s.msgs, "the form opened in the key's Update")
	require.Contains(t, d.Screen(), "Acknowledge until")
	d.Type("walked")
	mark := w.Mark()
	d.Press("enter")
	require.Len(t, w.WritesSince(mark), 1, "one PATCH")
	require.Len(t, s.msgs, 1, "only the write's answer went through the root: %v", s.msgs)
	assert.True(t, strings.HasPrefix(s.msgs[0], "views.Result["), s.msgs[0])
	assert.NotContains(t, d.Screen(), "Acknowledge until", "the form closed")
	assert.Equal(t, "walked", alertOf(t, w, id).AcknowledgementComment)
}
