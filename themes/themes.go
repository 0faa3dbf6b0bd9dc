// Package themes turns a named palette (dark, light, mono) into the lipgloss
// styles every part of the dashboard renders with.
//
// The mono theme uses only bold, faint, underline and reverse, so the app
// stays usable with NO_COLOR or on a terminal without colour: the cursor row
// is reversed rather than tinted.
package themes

import (
	"fmt"
	"image/color"
	"sort"
	"strings"

	"charm.land/lipgloss/v2"
)

// Theme is a named set of styles.
type Theme struct {
	Name string
	// Glamour is the glamour standard style name that matches the theme
	// ("dark", "light" or "notty").
	Glamour string
	// Dark reports whether the theme is meant for a dark background; bubbles
	// components that take an isDark flag (help, textinput) should get it.
	Dark bool
	Styles
}

// Styles are the lipgloss styles the whole app renders with. Styles hold no
// width, padding or margins unless noted: callers size things themselves.
type Styles struct {
	// Chrome
	Header        lipgloss.Style // top bar: app name, profile
	Breadcrumb    lipgloss.Style // org › project › cluster
	BreadcrumbSep lipgloss.Style // the › between crumbs
	RoleBadge     lipgloss.Style // the caller's role, e.g. PROJECT_OWNER
	ReadOnlyBadge lipgloss.Style // READ-ONLY
	TabActive     lipgloss.Style
	TabInactive   lipgloss.Style
	Footer        lipgloss.Style // status bar and indicator lines
	HelpKey       lipgloss.Style
	HelpDesc      lipgloss.Style
	HelpSep       lipgloss.Style

	// Tables and lists
	TableHeader   lipgloss.Style
	TableCell     lipgloss.Style
	TableSelected lipgloss.Style // the cursor row; reverse in mono
	TableMarked   lipgloss.Style // rows marked with space
	SortMarker    lipgloss.Style // ▲/▼ in the header
	Match         lipgloss.Style // matched characters in pickers and searches

	// Status by severity (alerts) and by state (jobs, clusters)
	SeverityCritical lipgloss.Style
	SeverityError    lipgloss.Style
	SeverityWarning  lipgloss.Style
	SeverityInfo     lipgloss.Style
	StateOK          lipgloss.Style
	StateRunning     lipgloss.Style
	StateFailed      lipgloss.Style
	StateMuted       lipgloss.Style

	// Dialogs and forms
	DialogBorder    lipgloss.Style // has a border and padding; the box around a dialog
	DialogTitle     lipgloss.Style
	ButtonFocused   lipgloss.Style
	ButtonUnfocused lipgloss.Style
	FieldLabel      lipgloss.Style
	FieldFocused    lipgloss.Style // label of the focused field
	Counter         lipgloss.Style // 37/200 under a text field

	// Notices
	ToastInfo  lipgloss.Style // has a border
	ToastError lipgloss.Style // has a border
	Disabled   lipgloss.Style // greyed-out actions, with their reason
	ErrorText  lipgloss.Style // inline errors, validation messages
	Muted      lipgloss.Style // secondary text
}

// Class returns the style for a status class: a severity (CRITICAL, ERROR,
// WARNING, INFO) or a state (ok, running, failed, muted, and the API's own
// words such as COMPLETED, IN_PROGRESS, FAILED, OPEN, CLOSED). Matching is
// case-insensitive; an unknown class gets TableCell.
func (s Styles) Class(class string) lipgloss.Style {
	switch strings.ToUpper(class) {
	case "CRITICAL":
		return s.SeverityCritical
	case "ERROR", "HIGH":
		return s.SeverityError
	case "WARNING", "WARN", "MEDIUM":
		return s.SeverityWarning
	case "INFO", "INFORMATIONAL", "LOW":
		return s.SeverityInfo
	case "OK", "COMPLETED", "SUCCEEDED", "READY", "IDLE", "STEADY", "CLOSED", "ACTIVE":
		return s.StateOK
	case "RUNNING", "IN_PROGRESS", "QUEUED", "PENDING", "BUILDING", "VALIDATING", "UPDATING", "CREATING":
		return s.StateRunning
	case "FAILED", "CANCELLED", "FAILURE", "DELETED", "OPEN":
		return s.StateFailed
	case "MUTED", "ACKNOWLEDGED", "TRACKING", "PAUSED", "DISABLED":
		return s.StateMuted
	}
	return s.TableCell
}

// palette is the handful of colours a colour theme is built from.
type palette struct {
	fg, muted, faint, accent, accentFg, selBg, selFg, markBg color.Color
	critical, errc, warn, info, ok, running                  color.Color
	headerBg, headerFg, badgeBg, roBg, border                color.Color
}

var darkPalette = palette{
	fg: lipgloss.Color("#D0D0D0"), muted: lipgloss.Color("#8A8A8A"), faint: lipgloss.Color("#5F5F5F"),
	accent: lipgloss.Color("#AF87FF"), accentFg: lipgloss.Color("#1C1C1C"),
	selBg: lipgloss.Color("#3A3A5F"), selFg: lipgloss.Color("#FFFFFF"), markBg: lipgloss.Color("#303030"),
	critical: lipgloss.Color("#FF5F5F"), errc: lipgloss.Color("#FF875F"), warn: lipgloss.Color("#FFD75F"),
	info: lipgloss.Color("#5FAFFF"), ok: lipgloss.Color("#87D787"), running: lipgloss.Color("#5FD7D7"),
	headerBg: lipgloss.Color("#262640"), headerFg: lipgloss.Color("#E4E4E4"),
	badgeBg: lipgloss.Color("#5F5FAF"), roBg: lipgloss.Color("#AF5F00"), border: lipgloss.Color("#8787AF"),
}

var lightPalette = palette{
	fg: lipgloss.Color("#262626"), muted: lipgloss.Color("#6C6C6C"), faint: lipgloss.Color("#A8A8A8"),
	accent: lipgloss.Color("#5F00AF"), accentFg: lipgloss.Color("#FFFFFF"),
	selBg: lipgloss.Color("#D7D7FF"), selFg: lipgloss.Color("#000000"), markBg: lipgloss.Color("#EEEEEE"),
	critical: lipgloss.Color("#D70000"), errc: lipgloss.Color("#AF5F00"), warn: lipgloss.Color("#875F00"),
	info: lipgloss.Color("#005FAF"), ok: lipgloss.Color("#008700"), running: lipgloss.Color("#008787"),
	headerBg: lipgloss.Color("#E4E4F8"), headerFg: lipgloss.Color("#1C1C1C"),
	badgeBg: lipgloss.Color("#5F5FAF"), roBg: lipgloss.Color("#D75F00"), border: lipgloss.Color("#5F5F87"),
}

func colourStyles(p palette) Styles {
	n := lipgloss.NewStyle
	box := func(c color.Color) lipgloss.Style {
		return n().Border(lipgloss.RoundedBorder()).BorderForeground(c).Padding(0, 1)
	}
	return Styles{
		Header:        n().Bold(true).Foreground(p.headerFg).Background(p.headerBg),
		Breadcrumb:    n().Foreground(p.fg),
		BreadcrumbSep: n().Foreground(p.faint),
		RoleBadge:     n().Bold(true).Foreground(lipgloss.Color("#FFFFFF")).Background(p.badgeBg).Padding(0, 1),
		ReadOnlyBadge: n().Bold(true).Foreground(lipgloss.Color("#FFFFFF")).Background(p.roBg).Padding(0, 1),
		TabActive:     n().Bold(true).Foreground(p.accentFg).Background(p.accent).Padding(0, 1),
		TabInactive:   n().Foreground(p.muted).Padding(0, 1),
		Footer:        n().Foreground(p.muted),
		HelpKey:       n().Bold(true).Foreground(p.accent),
		HelpDesc:      n().Foreground(p.muted),
		HelpSep:       n().Foreground(p.faint),

		TableHeader:   n().Bold(true).Foreground(p.accent),
		TableCell:     n().Foreground(p.fg),
		TableSelected: n().Bold(true).Foreground(p.selFg).Background(p.selBg),
		TableMarked:   n().Foreground(p.warn).Background(p.markBg),
		SortMarker:    n().Foreground(p.accent),
		Match:         n().Bold(true).Underline(true).Foreground(p.accent),

		SeverityCritical: n().Bold(true).Foreground(p.critical),
		SeverityError:    n().Foreground(p.errc),
		SeverityWarning:  n().Foreground(p.warn),
		SeverityInfo:     n().Foreground(p.info),
		StateOK:          n().Foreground(p.ok),
		StateRunning:     n().Foreground(p.running),
		StateFailed:      n().Bold(true).Foreground(p.critical),
		StateMuted:       n().Foreground(p.faint),

		DialogBorder:    box(p.border),
		DialogTitle:     n().Bold(true).Foreground(p.accent),
		ButtonFocused:   n().Bold(true).Foreground(p.accentFg).Background(p.accent).Padding(0, 1),
		ButtonUnfocused: n().Foreground(p.muted).Padding(0, 1),
		FieldLabel:      n().Foreground(p.muted),
		FieldFocused:    n().Bold(true).Foreground(p.accent),
		Counter:         n().Foreground(p.faint),

		ToastInfo:  box(p.info),
		ToastError: box(p.critical).Foreground(p.critical),
		Disabled:   n().Foreground(p.faint),
		ErrorText:  n().Foreground(p.critical),
		Muted:      n().Foreground(p.muted),
	}
}

// monoStyles uses attributes only, never a colour.
func monoStyles() Styles {
	n := lipgloss.NewStyle
	box := n().Border(lipgloss.NormalBorder()).Padding(0, 1)
	return Styles{
		Header:        n().Bold(true).Reverse(true),
		Breadcrumb:    n(),
		BreadcrumbSep: n().Faint(true),
		RoleBadge:     n().Bold(true),
		ReadOnlyBadge: n().Bold(true).Underline(true),
		TabActive:     n().Bold(true).Reverse(true).Padding(0, 1),
		TabInactive:   n().Padding(0, 1),
		Footer:        n(),
		HelpKey:       n().Bold(true),
		HelpDesc:      n(),
		HelpSep:       n().Faint(true),

		TableHeader:   n().Bold(true).Underline(true),
		TableCell:     n(),
		TableSelected: n().Reverse(true),
		TableMarked:   n().Bold(true),
		SortMarker:    n().Bold(true),
		Match:         n().Underline(true),

		SeverityCritical: n().Bold(true).Underline(true),
		SeverityError:    n().Bold(true),
		SeverityWarning:  n().Underline(true),
		SeverityInfo:     n(),
		StateOK:          n(),
		StateRunning:     n().Bold(true),
		StateFailed:      n().Bold(true).Underline(true),
		StateMuted:       n().Faint(true),

		DialogBorder:    box,
		DialogTitle:     n().Bold(true).Underline(true),
		ButtonFocused:   n().Reverse(true).Bold(true).Padding(0, 1),
		ButtonUnfocused: n().Padding(0, 1),
		FieldLabel:      n(),
		FieldFocused:    n().Bold(true),
		Counter:         n().Faint(true),

		ToastInfo:  box,
		ToastError: box.Bold(true),
		Disabled:   n().Faint(true),
		ErrorText:  n().Bold(true),
		Muted:      n().Faint(true),
	}
}

// Names of the built-in themes.
const (
	Dark  = "dark"
	Light = "light"
	Mono  = "mono"
)

// Names lists the built-in theme names, sorted.
func Names() []string {
	names := []string{Dark, Light, Mono}
	sort.Strings(names)
	return names
}

// Get returns a built-in theme by name (case-insensitive). An unknown name is
// an error that lists the valid names.
func Get(name string) (Theme, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case Dark:
		return Theme{Name: Dark, Glamour: "dark", Dark: true, Styles: colourStyles(darkPalette)}, nil
	case Light:
		return Theme{Name: Light, Glamour: "light", Dark: false, Styles: colourStyles(lightPalette)}, nil
	case Mono:
		return Theme{Name: Mono, Glamour: "notty", Dark: true, Styles: monoStyles()}, nil
	}
	return Theme{}, fmt.Errorf("unknown theme %q (valid: %s)", name, strings.Join(Names(), ", "))
}

// MustGet is Get for names known to be valid; it panics otherwise.
func MustGet(name string) Theme {
	t, err := Get(name)
	if err != nil {
		panic(err)
	}
	return t
}

// Resolve picks the theme to run with. noColor (the caller passes
// os.Getenv("NO_COLOR") != "") forces mono; otherwise a valid configured
// name wins; otherwise ("", "auto" or an unknown name, which config
// validation should already have reported) dark or light follows the
// terminal background (tea.BackgroundColorMsg.IsDark()).
func Resolve(configured string, noColor bool, darkBackground bool) Theme {
	if noColor {
		return MustGet(Mono)
	}
	if c := strings.TrimSpace(configured); c != "" && !strings.EqualFold(c, "auto") {
		if t, err := Get(c); err == nil {
			return t
		}
	}
	if darkBackground {
		return MustGet(Dark)
	}
	return MustGet(Light)
}
