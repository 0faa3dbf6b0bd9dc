package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With --demo the help overlay names the demo server and its keys, and
// keeps them in view however far the list is scrolled; without a demo it
// says nothing about one.
func TestHelpShowsTheDemoServer(t *testing.T) {
	d, _, _ := readyModel(t, func(o *Options) { o.DemoServer = "http://127.0.0.1:48213" })
	d.key(press("?"))
	screen := d.screen()
	assert.Contains(t, screen, "demo server http://127.0.0.1:48213")
	assert.Contains(t, screen, "digest keys: org-owner/org-owner-secret")
	assert.Contains(t, screen, "esc/? close")
	for range 200 {
		d.key(press("j"))
	}
	screen = d.screen()
	assert.Contains(t, screen, "demo server http://127.0.0.1:48213", "pinned when scrolled to the end")
	assert.NotContains(t, screen, "more below", "scrolled to the end")

	plain, _, _ := readyModel(t, nil)
	plain.key(press("?"))
	assert.Contains(t, plain.screen(), "esc/? close")
	assert.NotContains(t, plain.screen(), "demo server")
}

// Scrolled to the end, the help overlay shows its last line (the body has
// one row less than the overlay: the footer takes it).
func TestHelpScrollsToItsLastLine(t *testing.T) {
	d, _, _ := readyModel(t, nil)
	d.send(teaSize(120, 20))
	d.key(press("?"))
	require.Contains(t, d.screen(), "more below", "the list is longer than the overlay")
	for range 200 {
		d.key(press("j"))
	}
	lines := d.m.helpLines(76)
	last := strings.TrimSpace(ansi.Strip(lines[len(lines)-1]))
	require.NotEmpty(t, last)
	assert.Contains(t, d.screen(), last)
	assert.NotContains(t, d.screen(), "more below")
}
