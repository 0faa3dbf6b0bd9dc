package ui

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Server strings with terminal escapes render as harmless text: no title
// change, no screen clear, anywhere in the shell.
func TestServerEscapesRenderHarmless(t *testing.T) {
	api := newFakeAPI(t, orgOwner())
	api.orgs[0].Name = "Acme\x1b[2J Corp"
	api.projects[0].Name = "pay\x1b]0;pwned\x07ments"
	api.clusters[fakePayments][0].Name = "pay-main\x1b[2J"
	api.alerts[fakePayments][0]["eventTypeName"] = "HOST\x1b]0;pwned\x07_DOWN\x1b[2J"
	m := newModel(t, api, func(o *Options) { o.Cluster = "pay-main\x1b[2J" })
	d := newDriver(t, m, 120, 40)
	d.Settle()
	require.Equal(t, phaseReady, m.phase)

	for _, open := range []string{"", "@", ":"} {
		if open != "" {
			d.Press(open)
		}
		raw := m.View().Content
		assert.NotContains(t, raw, "\x1b]0;", "no title change")
		assert.NotContains(t, raw, "\x1b[2J", "no screen clear")
		assert.NotContains(t, raw, "\x07")
		screen := d.Screen()
		assert.NotContains(t, screen, "pwned\x07")
		if open == "" {
			assert.Contains(t, screen, "payments", "the name is still readable")
			assert.Contains(t, screen, "Acme Corp")
			assert.Contains(t, screen, "HOST_DOWN")
		}
		d.Press("esc")
	}
	assert.False(t, strings.Contains(m.View().WindowTitle, "\x1b"))
}
