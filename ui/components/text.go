package components

import (
	"strconv"

	"github.com/charmbracelet/x/ansi"
)

// Width is the cell width of s, styled or not; plain ASCII is counted
// without parsing.
func Width(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] < ' ' {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// Truncate cuts s, styled or not, to at most w cells, ending in "…" when
// it cut. It is the one truncation the dashboard uses.
func Truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if Width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// Thousands groups the digits of n by three with commas: 1,234,567.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	start := 0
	if n < 0 {
		start = 1
	}
	for i := len(s) - 3; i > start; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
