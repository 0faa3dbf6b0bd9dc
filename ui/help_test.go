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
	lines := d.m.helpLines(76, "")
	last := strings.TrimSpace(ansi.Strip(lines[len(lines)-1]))
	require.NotEmpty(t, last)
	assert.Contains(t, d.Screen(), last)
	assert.NotContains(t, d.Screen(), "more below")
}

// `/` in help searches keys and descriptions as they are typed; esc clears
// the search first, then closes help.
func TestHelpSearchNarrowsAndEscClearsFirst(t *testing.T) {
	d, _, _ := readyModel(t, nil)
	d.Press("?")
	full := d.Screen()
	require.Contains(t, full, "/ search")
	d.Press("/")
	d.Type("quit")
	screen := d.Screen()
	assert.Contains(t, screen, "search: quit")
	assert.Contains(t, screen, "quit", "the matching entry stays")
	assert.Less(t, len(d.m.helpLines(76, "quit")), len(d.m.helpLines(76, "")), "other entries are gone")
	all, narrowed := ansi.Strip(strings.Join(d.m.helpLines(76, ""), "\n")), ansi.Strip(strings.Join(d.m.helpLines(76, "quit"), "\n"))
	assert.Contains(t, all, "acknowledge")
	assert.NotContains(t, narrowed, "acknowledge", "an entry that does not match is gone")
	assert.Contains(t, narrowed, "quit")
	d.Press("enter", "j") // typing done: j scrolls, it is not typed
	assert.Contains(t, d.Screen(), "search: quit •")
	d.Press("/")
	d.Type("zzzz")
	assert.Contains(t, d.Screen(), "no key matches “quitzzzz”")
	d.Press("esc")
	assert.Contains(t, d.Screen(), "/ search • j/k scroll", "esc cleared the search and help stays open")
	d.Press("esc")
	assert.NotContains(t, d.Screen(), "/ search", "the second esc closes help")
}
