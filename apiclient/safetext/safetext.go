// Package safetext makes text from a server safe to print: escape sequences,
// controls, bidi overrides and marks, zero-width characters and invalid
// UTF-8 are removed, and line separators are line breaks. The client applies it
// to every string it decodes (Strings), and the widgets apply it again before
// rendering, so no view can forget it.
package safetext

import (
	"reflect"
	"strings"
	"unicode/utf8"
)

// Line makes a server string safe to print on one line (table cells,
// titles, breadcrumbs): escape sequences (CSI, OSC, DCS, SOS, PM, APC and
// two-byte escapes), C0 and C1 controls, DEL, bidi overrides, isolates and
// marks (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C), zero-width
// characters (U+200B-U+200D, U+FEFF) and invalid UTF-8 are removed: they
// can make one name look like another. Newlines, tabs and the line and
// paragraph separators (U+2028, U+2029) become single spaces. A string that
// is already clean is returned without allocating.
func Line(s string) string { return sanitize(s, false) }

// Text is Line for multi-line text (details, log lines, error bodies):
// newlines are kept (CR LF becomes LF, a lone CR is dropped), U+2028 and
// U+2029 become newlines and a tab becomes four spaces.
func Text(s string) string { return sanitize(s, true) }

// IsBidi reports the explicit direction overrides and isolates.
func IsBidi(r rune) bool { return isBidi(r) }

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
		case r == '\n' || r == lineSep || r == paraSep:
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
		case isControl(r) || isBidi(r) || isInvisible(r):
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

const (
	lineSep = '\u2028'
	paraSep = '\u2029'
)

// isInvisible reports the characters that print nothing yet change how text
// reads: zero-width space, non-joiner and joiner, the left-to-right,
// right-to-left and Arabic letter marks, and the byte order mark.
func isInvisible(r rune) bool {
	return (r >= 0x200b && r <= 0x200f) || r == 0x061c || r == 0xfeff
}

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
		if (r == utf8.RuneError && size <= 1) || isControl(r) || isBidi(r) || isInvisible(r) || r == lineSep || r == paraSep {
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

// Strings replaces, in place, every string reachable from v (a pointer):
// struct fields, slice and array elements, map keys and values, and strings
// held in interfaces (as decoded into map[string]any) become Text(s). Raw
// byte slices (json.RawMessage) are left as they are: they are documents,
// shown only through the bounded document renderer, which cleans its output.
// It reports how many strings it changed.
func Strings(v any) int {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return 0
	}
	n := 0
	walk(rv.Elem(), &n)
	return n
}

func walk(v reflect.Value, n *int) {
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); !isClean(s, true) && v.CanSet() {
			v.SetString(Text(s))
			*n++
		}
	case reflect.Pointer:
		if !v.IsNil() {
			walk(v.Elem(), n)
		}
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		inner := v.Elem()
		switch inner.Kind() {
		case reflect.String:
			if s := inner.String(); !isClean(s, true) && v.CanSet() {
				v.Set(reflect.ValueOf(Text(s)).Convert(inner.Type()))
				*n++
			}
		case reflect.Pointer, reflect.Map, reflect.Slice:
			walk(inner, n) // reference types: changed in place
		case reflect.Struct, reflect.Array:
			if v.CanSet() {
				cp := reflect.New(inner.Type()).Elem()
				cp.Set(inner)
				before := *n
				walk(cp, n)
				if *n != before {
					v.Set(cp)
				}
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanSet() {
				walk(f, n)
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // raw bytes: a document
		}
		for i := 0; i < v.Len(); i++ {
			walk(v.Index(i), n)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			walk(v.Index(i), n)
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		keyIsString := v.Type().Key().Kind() == reflect.String
		iter := v.MapRange()
		type change struct{ oldKey, key, val reflect.Value }
		var changes []change
		for iter.Next() {
			k, val := iter.Key(), iter.Value()
			before := *n
			cv := reflect.New(val.Type()).Elem()
			cv.Set(val)
			walk(cv, n)
			nk := k
			if keyIsString && !isClean(k.String(), true) {
				nk = reflect.New(k.Type()).Elem()
				nk.SetString(Text(k.String()))
				*n++
			}
			if *n != before {
				changes = append(changes, change{k, nk, cv})
			}
		}
		for _, c := range changes {
			v.SetMapIndex(c.oldKey, reflect.Value{})
			v.SetMapIndex(c.key, c.val)
		}
	}
}
