package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With --demo the help overlay names the demo server and its keys, and
// keeps them in view however far the list is scrolled; without a demo it
// says nothing about one.
func TestHelpShowsTheDemoServer(t *testing.T) {
	d, _, _ := readyModel(t, func(o *Options) { o.DemoServer = "http://127.0.0.1:48213" })
	d.Press("?")
	screen := d.Screen()
	assert.Contains(t, screen, "demo server http://127.0.0.1:48213")
	assert.Contains(t, screen, "digest keys: org-owner/org-owner-secret")
	assert.Contains(t, screen, "esc/? close")
	for range 200 {
		d.Press("j")
	}
	screen = d.Screen()
	assert.Contains(t, screen, "demo server http://127.0.0.1:48213", "pinned when scrolled to the end")
	assert.NotContains(t, screen, "more below", "scrolled to the end")

	plain, _, _ := readyModel(t, nil)
	plain.Press("?")
	assert.Contains(t, plain.Screen(), "esc/? close")
	assert.NotContains(t, plain.Screen(), "demo server")
}

// Scrolled to the end, the help overlay shows its last line (the body has
// one row less than the overlay: the footer takes it).
func TestHelpScrollsToItsLastLine(t *testing.T) {
	d, _, _ := readyModel(t, nil)
	d.Send(tea.WindowSizeMsg{Width: 120, Height: 20})
	d.Press("?")
	require.Contains(t, d.Screen(), "more below", "the list is longer than the overlay")
	for range 200 {
		d.Press("j")
	}
	lines := d.m.helpLines(76)
	last := strings.TrimSpace(ansi.Strip(lines[len(lines)-1]))
	require.NotEmpty(t, last)
	assert.Contains(t, d.Screen(), last)
	assert.NotContains(t, d.Screen(), "more below")
}
