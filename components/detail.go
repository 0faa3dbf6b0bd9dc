package components

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

type detailKind int

const (
	detailText detailKind = iota
	detailMarkdown
)

type renderKey struct {
	content string
	width   int
	style   string
}

// renderCache keeps a few glamour renders so resizing back and forth, or
// flipping between two items, does not re-render.
type renderCache struct {
	entries map[renderKey]string
	order   []renderKey
	renders int // glamour calls made, for tests
	bytes   int // markdown bytes given to glamour, for tests
}

const renderCacheSize = 16

func (c *renderCache) get(k renderKey) (string, bool) {
	s, ok := c.entries[k]
	return s, ok
}

func (c *renderCache) put(k renderKey, s string) {
	if c.entries == nil {
		c.entries = map[renderKey]string{}
	}
	if _, ok := c.entries[k]; !ok {
		c.order = append(c.order, k)
		if len(c.order) > renderCacheSize {
			delete(c.entries, c.order[0])
			c.order = c.order[1:]
		}
	}
	c.entries[k] = s
}

// Detail is a scrollable view of one item: markdown rendered with glamour
// in the theme's style, pretty-printed JSON (rendered as a json code block
// for highlighting), or plain text. Content is sanitized before rendering.
type Detail struct {
	vp      viewport.Model
	kind    detailKind
	content string // sanitized source (markdown or text)
	style   string // glamour style
	width   int
	height  int
	cache   *renderCache
	nav     keymap.Navigation
	err     error
	// async renders markdown longer than asyncRenderBytes off the UI loop:
	// the view says "rendering…" until TakeRender's Cmd answers.
	async   bool
	pending *renderKey
}

// asyncRenderBytes is the markdown size above which an async Detail renders
// in a Cmd; below it glamour takes well under a millisecond.
const asyncRenderBytes = 4 << 10

// RenderedMsg carries a markdown render done off the UI loop back to the
// Detail that asked for it (through its pane: see TakeRender).
type RenderedMsg struct {
	key renderKey
	out string
	err error
}

// SetAsync makes long markdown render off the UI loop.
func (d *Detail) SetAsync(on bool) { d.async = on }

// TakeRender returns the Cmd that renders the pending markdown, if any; wrap
// addresses its RenderedMsg to the pane that owns this Detail, which hands
// it to Rendered.
func (d *Detail) TakeRender(wrap func(tea.Msg) tea.Msg) tea.Cmd {
	if d.pending == nil {
		return nil
	}
	k := *d.pending
	d.pending = nil
	return func() tea.Msg {
		out, err := renderMarkdown(k)
		return wrap(RenderedMsg{key: k, out: out, err: err})
	}
}

// Rendered stores a render done off the loop and shows it if it is still
// what the view is on.
func (d *Detail) Rendered(msg RenderedMsg) {
	d.cache.put(msg.key, msg.out)
	d.cache.renders++
	d.cache.bytes += len(msg.key.content)
	if d.kind == detailMarkdown && msg.key == (renderKey{content: d.content, width: d.width, style: d.style}) {
		d.err = msg.err
		y := d.vp.YOffset()
		d.vp.SetContent(msg.out)
		d.vp.SetYOffset(y)
	}
}

// RenderedBytes is how much markdown glamour has been given in all.
func (d Detail) RenderedBytes() int { return d.cache.bytes }

// Pending reports a render waiting for TakeRender.
func (d Detail) Pending() bool { return d.pending != nil }

// NewDetail returns an empty detail view. km may be nil.
func NewDetail(th themes.Theme, km *keymap.KeyMap) Detail {
	if km == nil {
		km = keymap.Default()
	}
	vp := viewport.New()
	vp.KeyMap = viewport.KeyMap{} // keys come from our keymap
	return Detail{vp: vp, style: th.Glamour, cache: &renderCache{}, nav: km.Navigation}
}

// SetTheme switches the glamour style.
func (d *Detail) SetTheme(th themes.Theme) {
	d.style = th.Glamour
	d.refresh(false)
}

// SetSize sets the size; markdown is re-wrapped to the width.
func (d *Detail) SetSize(w, h int) {
	d.width, d.height = max(w, 0), max(h, 0)
	d.vp.SetWidth(d.width)
	d.vp.SetHeight(d.height)
	d.refresh(false)
}

// SetMarkdown shows markdown and scrolls to the top.
func (d *Detail) SetMarkdown(md string) {
	d.kind, d.content = detailMarkdown, SanitizeText(md)
	d.refresh(true)
}

// SetText shows plain text (wrapped by the viewport) and scrolls to the top.
func (d *Detail) SetText(s string) {
	d.kind, d.content = detailText, SanitizeText(s)
	d.refresh(true)
}

// SetJSON shows raw JSON, or any other value marshalled, as a highlighted
// code block under an optional markdown heading, through the bounded
// document path (NewDocument): over the limits, the summary instead.
func (d *Detail) SetJSON(title string, v any) error {
	doc := NewDocument(v)
	if doc.Err != nil {
		if doc.Pretty != "" { // not JSON: shown as it came, cleaned
			d.SetText(doc.Pretty)
		}
		return fmt.Errorf("detail json: %w", doc.Err)
	}
	var md strings.Builder
	if title != "" {
		md.WriteString("# " + EscapeMarkdown(Sanitize(title)) + "\n\n")
	}
	if doc.TooLarge {
		md.WriteString(EscapeMarkdown(doc.Summary("document")) + "\n")
	} else {
		fence := "```"
		for strings.Contains(doc.Pretty, fence) {
			fence += "`"
		}
		md.WriteString(fence + "json\n" + doc.Pretty + "\n" + fence + "\n")
	}
	d.SetMarkdown(md.String())
	return nil
}

// Source is the sanitized text the detail shows (markdown or plain), as
// set; tests read it without rendering.
func (d Detail) Source() string { return d.content }

// Err is the last glamour error (the view then falls back to plain text).
func (d Detail) Err() error { return d.err }

// Renders is how many times glamour has run (cache misses).
func (d Detail) Renders() int { return d.cache.renders }

func (d *Detail) refresh(top bool) {
	if d.width <= 0 {
		return
	}
	out := d.content
	switch d.kind {
	case detailMarkdown:
		out = d.render()
	case detailText:
		// Broken between words; a word longer than the width is broken
		// where it must (the viewport's soft wrap would cut every line
		// mid-word).
		out = ansi.Wrap(out, d.width, "")
	}
	d.vp.SoftWrap = d.kind == detailText
	d.vp.SetContent(out)
	if top {
		d.vp.GotoTop()
	}
}

func (d *Detail) render() string {
	k := renderKey{content: d.content, width: d.width, style: d.style}
	if s, ok := d.cache.get(k); ok {
		return s
	}
	if d.async && len(d.content) > asyncRenderBytes {
		d.pending = &k
		return "rendering…"
	}
	d.cache.renders++
	d.cache.bytes += len(d.content)
	out, err := renderMarkdown(k)
	d.err = err
	d.cache.put(k, out)
	return out
}

// renderMarkdown runs glamour; it touches no Detail state, so it may run
// in a Cmd. On an error the source is shown as it is.
func renderMarkdown(k renderKey) (string, error) {
	r, err := glamour.NewTermRenderer(glamourStyle(k.style), glamour.WithWordWrap(max(k.width-2, 10)))
	var out string
	if err == nil {
		out, err = r.Render(k.content)
	}
	if err != nil {
		out = k.content
	}
	return stripHyperlinks(strings.TrimRight(out, "\n")), err
}

// Update scrolls.
func (d Detail) Update(msg tea.Msg) (Detail, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return d, nil
	}
	switch {
	case d.nav.Up.Matches(k):
		d.vp.ScrollUp(1)
	case d.nav.Down.Matches(k):
		d.vp.ScrollDown(1)
	case d.nav.PageUp.Matches(k):
		d.vp.PageUp()
	case d.nav.PageDown.Matches(k):
		d.vp.PageDown()
	case d.nav.HalfUp.Matches(k):
		d.vp.HalfPageUp()
	case d.nav.HalfDown.Matches(k):
		d.vp.HalfPageDown()
	case d.nav.Home.Matches(k):
		d.vp.GotoTop()
	case d.nav.End.Matches(k):
		d.vp.GotoBottom()
	}
	return d, nil
}

// YOffset is the scroll position.
func (d Detail) YOffset() int { return d.vp.YOffset() }

// View renders the visible part.
func (d Detail) View() string {
	if d.width <= 0 || d.height <= 0 {
		return ""
	}
	return d.vp.View()
}
