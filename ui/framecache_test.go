package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// The header, tabs, help line and screen the root keeps are the ones it
// would make again: after each change below, the frame drawn with the
// caches is the frame drawn with them emptied.
func TestChromeCachesFollowWhatTheyShow(t *testing.T) {
	d, _, _ := readyModel(t, nil)
	m := d.m
	same := func(what string) {
		t.Helper()
		cached := m.View().Content
		m.frames = frameCache{}
		require.Equal(t, m.View().Content, cached, "after %s the kept frame is stale", what)
	}
	same("the start")
	d.Press("2")
	same("another pane")
	m.theme = themes.Resolve("light", false, false)
	same("another theme")
	d.Send(tea.WindowSizeMsg{Width: 90, Height: 30})
	same("a resize")
	d.Press("/")
	d.Type("payments")
	d.Press("enter")
	same("a filter")
	m.paused = true
	same("pausing")
	m.opts.Profile = "other"
	same("another profile")
}
