package components

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

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
	if p, ok := widePrefix(s, w); ok {
		return ansi.Truncate(p, w, "…")
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

// Age is a short duration for AGE and SINCE columns: 45s, 12m, 30h, 3d
// (hours up to two days); a negative duration reads 0s.
func Age(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// widePrefix is, for a long unstyled s (a server's 10k-character line), a
// prefix of it cut at a rune boundary that is already wider than w: the
// truncation of s to w cells is that of the prefix, found without
// measuring the whole of s (every cell, every frame). ok is false when s
// is short, styled, or its start is mostly zero-width.
func widePrefix(s string, w int) (string, bool) {
	n := 4*w + 64
	if len(s) <= n || strings.IndexByte(s, 0x1b) >= 0 {
		return "", false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	p := s[:n]
	return p, Width(p) > w
}
