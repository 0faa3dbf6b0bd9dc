package safetext

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type inner struct {
	Name string
	Tags []string
}

type outer struct {
	ID      string
	Ptr     *inner
	List    []inner
	ByName  map[string]inner
	Any     map[string]any
	Raw     json.RawMessage
	Alias   kind
	hidden  string
	Nested  [2]string
	Iface   any
	NilPtr  *inner
	NilMap  map[string]string
	Numbers []int
}

type kind string

func TestStringsReachesEveryString(t *testing.T) {
	const bad = "a\x1b]8;;https://evil.example\x07b\u009b2Jc\u202ed"
	const good = "abcd"
	o := outer{
		ID:     bad,
		Ptr:    &inner{Name: bad, Tags: []string{bad, "ok"}},
		List:   []inner{{Name: bad}},
		ByName: map[string]inner{bad: {Name: bad}},
		Any:    map[string]any{"k": bad, "nested": map[string]any{"x": []any{bad, 1.0}}},
		Raw:    json.RawMessage(`"` + "\\u001b" + `"`),
		Alias:  kind(bad),
		hidden: bad,
		Nested: [2]string{bad, good},
		Iface:  inner{Name: bad},
	}
	n := Strings(&o)
	assert.Equal(t, good, o.ID)
	assert.Equal(t, good, o.Ptr.Name)
	assert.Equal(t, []string{good, "ok"}, o.Ptr.Tags)
	assert.Equal(t, good, o.List[0].Name)
	require.Contains(t, o.ByName, good)
	assert.Equal(t, good, o.ByName[good].Name)
	assert.Equal(t, good, o.Any["k"])
	assert.Equal(t, good, o.Any["nested"].(map[string]any)["x"].([]any)[0])
	assert.Equal(t, kind(good), o.Alias)
	assert.Equal(t, bad, o.hidden, "unexported fields are not the decoder's")
	assert.Equal(t, [2]string{good, good}, o.Nested)
	assert.Equal(t, inner{Name: good}, o.Iface)
	assert.Equal(t, `"\u001b"`, string(o.Raw))
	assert.Equal(t, 11, n)
	assert.Zero(t, Strings(&o), "a second pass finds nothing")
	assert.Zero(t, Strings(o), "not a pointer: nothing to do")
}

func TestStringsKeepsNewlines(t *testing.T) {
	s := struct{ Text string }{"line one\r\nline two\x00"}
	Strings(&s)
	assert.Equal(t, "line one\nline two", s.Text)
}

// The characters that print nothing or break a line yet reach a terminal
// untouched by a control filter: each is removed (or is a line break) in
// both forms, and a clean string with other non-ASCII text is kept.
func TestInvisibleAndSeparatorCharacters(t *testing.T) {
	cases := []struct {
		name, in, line, text string
	}{
		{"zero-width space", "pay\u200bments", "payments", "payments"},
		{"zero-width non-joiner", "pay\u200cments", "payments", "payments"},
		{"zero-width joiner", "pay\u200dments", "payments", "payments"},
		{"left-to-right mark", "pay\u200ements", "payments", "payments"},
		{"right-to-left mark", "pay\u200fments", "payments", "payments"},
		{"Arabic letter mark", "pay\u061cments", "payments", "payments"},
		{"byte order mark", "\ufeffpayments", "payments", "payments"},
		{"LRE", "a\u202ab", "ab", "ab"},
		{"RLE", "a\u202bb", "ab", "ab"},
		{"PDF", "a\u202cb", "ab", "ab"},
		{"LRO", "a\u202db", "ab", "ab"},
		{"RLO", "a\u202eb", "ab", "ab"},
		{"LRI", "a\u2066b", "ab", "ab"},
		{"RLI", "a\u2067b", "ab", "ab"},
		{"FSI", "a\u2068b", "ab", "ab"},
		{"PDI", "a\u2069b", "ab", "ab"},
		{"line separator", "one\u2028two", "one two", "one\ntwo"},
		{"paragraph separator", "one\u2029two", "one two", "one\ntwo"},
		{"all at once", "\ufeffa\u200b\u200c\u200d\u200e\u200f\u061c\u202a\u202e\u2066\u2069b\u2028c", "ab c", "ab\nc"},
		{"other text is kept", "café 東京 Ελλάδα ✓", "café 東京 Ελλάδα ✓", "café 東京 Ελλάδα ✓"},
		{"neighbours are kept", "\u200a\u2010\u2027\u202f\u205f", "\u200a\u2010\u2027\u202f\u205f", "\u200a\u2010\u2027\u202f\u205f"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.line, Line(tc.in))
			assert.Equal(t, tc.text, Text(tc.in))
			s := struct{ Name string }{tc.in}
			Strings(&s)
			assert.Equal(t, tc.text, s.Name, "the decoder's pass")
		})
	}
}
