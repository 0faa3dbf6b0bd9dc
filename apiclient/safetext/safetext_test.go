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
