package search

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// createMembers are the members of a create's text outside its definition.
var createMembers = map[string]bool{"name": true, "database": true, "collectionName": true, "type": true, "definition": true}

// fieldError is a field check's refusal as the user's text states it: its
// field named by its full path in the document ("definition.numPartitions",
// however the check named it) and, when the text holds the field, a
// *views.JSONError at the field's key in src (counted as JSON syntax errors
// are, so problemIn moves it the same way). A field the text lacks is
// placed at the member that should hold it. Other errors pass unchanged.
func fieldError(s editSession, src string, err error) error {
	var ve *apiclient.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	field, reason := fullField(s, ve.Field), ve.Reason
	if strings.Contains(reason, "unknown analyzer") {
		reason += " (use lucene.standard, lucene.english, ... or a name from analyzers)"
	}
	path, ok := textPath(s, field)
	if ok {
		if off, found := locate(src, path); found {
			line, col := lineCol(src, off)
			return &views.JSONError{Line: line, Col: col, Msg: field + ": " + reason}
		}
	}
	return &apiclient.ValidationError{Field: field, Reason: reason}
}

// fullField names field from the document's top, as the other checks do:
// a definition member named alone (numPartitions) gets "definition.".
func fullField(s editSession, field string) string {
	top := field
	if i := strings.IndexAny(top, ".["); i >= 0 {
		top = top[:i]
	}
	switch s.Kind {
	case editCreate:
		if createMembers[top] {
			return field
		}
	case editUpdate:
		if top == "definition" || top == "type" {
			return field
		}
	default:
		return field
	}
	return "definition." + field
}

// pathStep is one step of a field's path: a member name, or an array
// index when name is empty.
type pathStep struct {
	name  string
	index int
}

// textPath is where field sits in the text the user edits: an update's
// text is the definition itself. ok is false for a field that is not in
// the text (an update's type).
func textPath(s editSession, field string) ([]pathStep, bool) {
	if s.Kind == editUpdate {
		if !strings.HasPrefix(field, "definition.") {
			return nil, false
		}
		field = strings.TrimPrefix(field, "definition.")
	}
	var steps []pathStep
	for _, part := range strings.Split(field, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if name != "" {
			steps = append(steps, pathStep{name: name})
		}
		for rest != "" {
			num, after, ok := strings.Cut(rest, "]")
			n, err := strconv.Atoi(num)
			if !ok || err != nil || n < 0 {
				return nil, false
			}
			steps = append(steps, pathStep{index: n})
			rest = strings.TrimPrefix(after, "[")
		}
		if name == "" && !strings.Contains(part, "[") {
			return nil, false
		}
	}
	return steps, len(steps) > 0
}

// locate is the byte offset in src of the key of the member path names
// (of the element, for an index), matched as encoding/json matches: the
// last member whose name equals the step's, case aside. When the path
// ends early (a required member left out), it is the deepest step found:
// the key of the member that lacks it, or the document's start.
func locate(src string, path []pathStep) (int, bool) {
	base := tokenStart(src, 0)
	if base >= len(src) {
		return 0, false
	}
	at := base
	for _, step := range path {
		next, found := child(src, base, step)
		if !found {
			return at, true
		}
		at = next
		base = tokenStart(src, next)
		if step.name != "" { // past the key and its colon, to the value
			base = valueAfterKey(src, next)
			if base < 0 {
				return at, true
			}
		}
	}
	return at, true
}

// child finds step in the value that starts at base: the offset of the
// member's key or the element's start.
func child(src string, base int, step pathStep) (int, bool) {
	dec := json.NewDecoder(strings.NewReader(src[base:]))
	open, err := dec.Token()
	if err != nil {
		return 0, false
	}
	want := json.Delim('{')
	if step.name == "" {
		want = json.Delim('[')
	}
	if open != want {
		return 0, false
	}
	found, at := false, 0
	for i := 0; dec.More(); i++ {
		start := tokenStart(src, base+int(dec.InputOffset()))
		if step.name != "" {
			t, err := dec.Token()
			key, isKey := t.(string)
			if err != nil || !isKey {
				return at, found
			}
			if strings.EqualFold(key, step.name) {
				found, at = true, start // the last one counts, as when decoded
			}
		} else if i == step.index {
			return start, true
		}
		if !skipValue(dec) {
			return at, found
		}
	}
	return at, found
}

// valueAfterKey is the offset of the value of the member whose key starts
// at key, or -1.
func valueAfterKey(src string, key int) int {
	dec := json.NewDecoder(strings.NewReader(src[key:]))
	if _, err := dec.Token(); err != nil {
		return -1
	}
	return tokenStart(src, key+int(dec.InputOffset()))
}

// skipValue reads one whole value's tokens.
func skipValue(dec *json.Decoder) bool {
	for level := 0; ; {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			level++
		case json.Delim('}'), json.Delim(']'):
			level--
		}
		if level == 0 {
			return true
		}
	}
}

// tokenStart skips white space and the separators a json.Decoder's offset
// stops before.
func tokenStart(src string, off int) int {
	for off < len(src) && strings.IndexByte(" \t\r\n,:", src[off]) >= 0 {
		off++
	}
	return off
}

// lineCol is off as a 1-based line and column (in runes), as
// views.JSONError counts them.
func lineCol(src string, off int) (line, col int) {
	line, col = 1, 1
	for _, r := range src[:min(off, len(src))] {
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return line, col
}
