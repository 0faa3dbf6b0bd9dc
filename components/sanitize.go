// Package components holds the dashboard's reusable widgets: the table,
// dialogs (confirm, typed confirm, form), picker, detail view, log view,
// toasts and the task line. Every widget has SetSize, an Update that returns
// its concrete type, and View() string; the root model composes them.
package components

import "github.com/dbadmin-tui/dbadmin-tui/apiclient/safetext"

// Sanitize makes a server string safe to print on one line (table cells,
// titles, breadcrumbs): escape sequences (CSI, OSC, DCS, SOS, PM, APC and
// two-byte escapes), C0 and C1 controls, DEL, bidi overrides and invalid
// UTF-8 are removed; newlines and tabs become single spaces. A string that is
// already clean is returned without allocating. The client has already
// applied safetext.Text to every decoded string; the widgets apply it again
// so text built elsewhere is covered too.
func Sanitize(s string) string { return safetext.Line(s) }

// SanitizeText is Sanitize for multi-line text (details, log lines, error
// bodies): newlines are kept (CR LF becomes LF, a lone CR is dropped) and a
// tab becomes four spaces.
func SanitizeText(s string) string { return safetext.Text(s) }

func isBidi(r rune) bool { return safetext.IsBidi(r) }
