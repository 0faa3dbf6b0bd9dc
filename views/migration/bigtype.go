package migration

import (
	"strconv"
	"strings"
)

// Large type for presentation mode: a five-row block font for the words and
// figures it shows (status words, READY, lag in seconds). Unknown runes
// render as a blank cell, never as garbage.
const glyphRows = 5

var glyphs = map[rune][glyphRows]string{
	'A': {" ███ ", "█   █", "█████", "█   █", "█   █"},
	'C': {" ████", "█    ", "█    ", "█    ", " ████"},
	'D': {"████ ", "█   █", "█   █", "█   █", "████ "},
	'E': {"█████", "█    ", "████ ", "█    ", "█████"},
	'F': {"█████", "█    ", "████ ", "█    ", "█    "},
	'G': {" ████", "█    ", "█  ██", "█   █", " ███ "},
	'H': {"█   █", "█   █", "█████", "█   █", "█   █"},
	'I': {"███", " █ ", " █ ", " █ ", "███"},
	'K': {"█   █", "█  █ ", "███  ", "█  █ ", "█   █"},
	'L': {"█    ", "█    ", "█    ", "█    ", "█████"},
	'M': {"█   █", "██ ██", "█ █ █", "█   █", "█   █"},
	'N': {"█   █", "██  █", "█ █ █", "█  ██", "█   █"},
	'O': {" ███ ", "█   █", "█   █", "█   █", " ███ "},
	'P': {"████ ", "█   █", "████ ", "█    ", "█    "},
	'R': {"████ ", "█   █", "████ ", "█  █ ", "█   █"},
	'S': {" ████", "█    ", " ███ ", "    █", "████ "},
	'T': {"█████", "  █  ", "  █  ", "  █  ", "  █  "},
	'U': {"█   █", "█   █", "█   █", "█   █", " ███ "},
	'V': {"█   █", "█   █", "█   █", " █ █ ", "  █  "},
	'W': {"█   █", "█   █", "█ █ █", "██ ██", "█   █"},
	'X': {"█   █", " █ █ ", "  █  ", " █ █ ", "█   █"},
	'Y': {"█   █", " █ █ ", "  █  ", "  █  ", "  █  "},
	'0': {" ███ ", "█  ██", "█ █ █", "██  █", " ███ "},
	'1': {"  █  ", " ██  ", "  █  ", "  █  ", " ███ "},
	'2': {" ███ ", "█   █", "  ██ ", " █   ", "█████"},
	'3': {"████ ", "    █", " ███ ", "    █", "████ "},
	'4': {"█   █", "█   █", "█████", "    █", "    █"},
	'5': {"█████", "█    ", "████ ", "    █", "████ "},
	'6': {" ███ ", "█    ", "████ ", "█   █", " ███ "},
	'7': {"█████", "    █", "   █ ", "  █  ", "  █  "},
	'8': {" ███ ", "█   █", " ███ ", "█   █", " ███ "},
	'9': {" ███ ", "█   █", " ████", "    █", " ███ "},
	's': {"     ", " ████", "██   ", "  ███", "████ "},
	'm': {"     ", "██ █ ", "█ █ █", "█ █ █", "█ █ █"},
	'h': {"█    ", "█    ", "████ ", "█   █", "█   █"},
	'-': {"     ", "     ", "█████", "     ", "     "},
	'—': {"     ", "     ", "█████", "     ", "     "},
	' ': {"  ", "  ", "  ", "  ", "  "},
}

// bigText renders s in the block font, one space between glyphs.
func bigText(s string) []string {
	rows := make([]strings.Builder, glyphRows)
	first := true
	for _, r := range s {
		g, ok := glyphs[r]
		if !ok {
			g = glyphs[' ']
		}
		for i := range rows {
			if !first {
				rows[i].WriteByte(' ')
			}
			rows[i].WriteString(g[i])
		}
		first = false
	}
	out := make([]string, glyphRows)
	for i := range rows {
		out[i] = strings.TrimRight(rows[i].String(), " ")
	}
	return out
}

// bigWidth is the width bigText(s) takes.
func bigWidth(s string) int {
	w := 0
	for i, r := range []rune(s) {
		g, ok := glyphs[r]
		if !ok {
			g = glyphs[' ']
		}
		if i > 0 {
			w++
		}
		w += len([]rune(g[0]))
	}
	return w
}

// bigLag is the lag as the block font can show it: "42s", "12m05s", "2h03m".
func bigLag(sec int64) string {
	switch {
	case sec < 60:
		return itoa(sec) + "s"
	case sec < 3600:
		return itoa(sec/60) + "m" + pad2(sec%60) + "s"
	}
	return itoa(sec/3600) + "h" + pad2(sec%3600/60) + "m"
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func pad2(n int64) string {
	if n < 10 {
		return "0" + itoa(n)
	}
	return itoa(n)
}
