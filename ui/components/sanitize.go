// Package components holds the dashboard's reusable widgets: the table,
// dialogs (confirm, typed confirm, form), picker, detail view, log view,
// toasts and the task line. Every widget has SetSize, an Update that returns
// its concrete type, and View() string; the root model composes them.
package components

import (
	"strings"
	"unicode/utf8"
)

// Sanitize makes a server string safe to print on one line (table cells,
// titles, breadcrumbs): escape sequences (CSI, OSC, DCS, SOS, PM, APC and
// two-byte escapes), C0 and C1 controls, DEL, bidi overrides and invalid
// UTF-8 are removed; newlines and tabs become single spaces. A string that is
// already clean is returned without allocating.
func Sanitize(s string) string { return sanitize(s, false) }

// SanitizeText is Sanitize for multi-line text (details, log lines, error
// bodies): newlines are kept (CR LF becomes LF, a lone CR is dropped) and a
// tab becomes four spaces.
func SanitizeText(s string) string { return sanitize(s, true) }

func sanitize(s string, multiline bool) string {
	if isClean(s, multiline) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError)
			i++
			continue
		case r == 0x1b:
			i = skipEscape(s, i+1)
			continue
		case r == 0x9b: // C1 CSI
			i = skipCSI(s, i+size)
			continue
		case r == 0x90 || r == 0x9d || r == 0x98 || r == 0x9e || r == 0x9f: // C1 DCS, OSC, SOS, PM, APC
			i = skipString(s, i+size)
			continue
		case r == '\n':
			if multiline {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		case r == '\t':
			if multiline {
				b.WriteString("    ")
			} else {
				b.WriteByte(' ')
			}
		case isControl(r) || isBidi(r):
			// dropped, including CR
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) }

// isBidi reports the explicit direction overrides and isolates, which can
// make a name read differently from what it is.
func isBidi(r rune) bool { return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) }

func isClean(s string, multiline bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			continue
		}
		if c < 0x80 {
			if c == '\n' && multiline {
				continue
			}
			return false
		}
		// Non-ASCII: check the whole rune.
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || isControl(r) || isBidi(r) {
			return false
		}
		i += size - 1
	}
	return true
}

// skipEscape returns the index just past the escape sequence whose ESC was
// at i-1.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	// nF escapes: intermediates 0x20-0x2f, then one final byte.
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI skips parameter and intermediate bytes and the final byte. A
// control or non-ASCII byte ends a malformed sequence without being eaten.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		switch {
		case c >= 0x20 && c <= 0x3f: // parameters, intermediates
			i++
		case c >= 0x40 && c <= 0x7e: // final
			return i + 1
		default:
			return i
		}
	}
	return i
}

// skipString skips an OSC/DCS/SOS/PM/APC payload up to and including its
// terminator: BEL, ST (ESC \) or C1 ST. An unterminated string runs to the
// end of the input, as a terminal would swallow it.
func skipString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i // a new escape starts: let the caller strip it
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		}
		i++
	}
	return i
}
