package views

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
)

// Registration is everything the dashboard knows about a pane. Each pane
// package exports one; the root holds the one ordered list of them
// (ui.Panes), and the jump keys, the palette, --pane, the [poll] settings,
// the keymap's conflict checking and `check`'s action list are derived from
// that list.
type Registration struct {
	ID    ID
	Title string // tabs and help headings: "Access logs"
	// Command is the palette command and the --pane name; ID when empty.
	Command string
	// Aliases are more names for the palette and --pane ("logs", "ix").
	Aliases []string
	// Jump is the help text of the pane's number key ("search indexes");
	// the lower-case title when empty.
	Jump string
	// Board: the pane spans every project rather than the context's one
	// (Triage); the dashboard does not open on it unless asked (--pane).
	Board bool
	// Table: the pane shows a components.Table, so the table keys (mark,
	// sort) are active with its own.
	Table bool
	// Poll is the pane's normal poll interval; the profile's [poll] table
	// overrides it under the key ID.
	Poll time.Duration
	// Reads are the operations the pane calls on its own (its list), for
	// `check`; its Actions' operations are listed from the actions.
	Reads []Read
	// FirstReads, when set, are the reads the pane makes first when shown
	// in the project groupID, exactly as it will make them: a start in that
	// project on this pane sends them ahead (apiclient.Client.ReadAhead)
	// with the start's own reads.
	FirstReads func(groupID string) []FirstRead
	// Actions are the pane's key actions with their default keys, catalog
	// operation and danger flag. Names start with ID and a dot.
	Actions []keymap.Action
	New     Factory
}

// FirstRead is one of a pane's first reads: the operation and its request.
type FirstRead struct {
	Op      string
	Request apiclient.Request
}

// Read is an operation a pane calls without a key, for `check`.
type Read struct {
	Desc string // "list snapshots"
	Op   string
}

// CommandName is the palette command and --pane name.
func (r Registration) CommandName() string {
	if r.Command != "" {
		return r.Command
	}
	return string(r.ID)
}

// JumpHelp is the help text of the pane's jump key.
func (r Registration) JumpHelp() string {
	if r.Jump != "" {
		return r.Jump
	}
	return strings.ToLower(r.Title)
}

// Keys is what the keymap knows of the pane.
func (r Registration) Keys() keymap.Pane {
	return keymap.Pane{Scope: r.ID.Scope(), Title: r.Title, Jump: r.JumpHelp(), Table: r.Table, Actions: r.Actions}
}

// Registry is the ordered list of panes: tab order, number keys 1-9.
type Registry []Registration

// Validate reports a registration the rest cannot derive from: a missing
// id, title or factory, a duplicate id or name, a name or alias that is
// one of the reserved words (the root's own palette commands, which would
// silently take it), an action outside its pane's scope, or two actions of
// one pane on the same key.
func (rs Registry) Validate(reserved ...string) error {
	names := map[string]ID{}
	taken := map[string]bool{}
	for _, w := range reserved {
		taken[strings.ToLower(w)] = true
	}
	for _, r := range rs {
		if r.ID == "" || r.Title == "" || r.New == nil {
			return fmt.Errorf("pane %q: a registration needs an ID, a Title and New", r.ID)
		}
		for _, n := range append([]string{string(r.ID), r.CommandName()}, r.Aliases...) {
			n = strings.ToLower(n)
			if taken[n] {
				return fmt.Errorf("pane %q: name %q is a palette command", r.ID, n)
			}
			if prev, dup := names[n]; dup && prev != r.ID {
				return fmt.Errorf("pane %q: name %q is taken by pane %q", r.ID, n, prev)
			}
			names[n] = r.ID
		}
		for _, a := range r.Actions {
			if a.Scope() != r.ID.Scope() {
				return fmt.Errorf("pane %q: action %q must be named %s.<action>", r.ID, a.Name, r.ID)
			}
		}
	}
	return rs.Keymap().Validate()
}

// Keymap builds the default keymap of these panes.
func (rs Registry) Keymap() *keymap.KeyMap {
	panes := make([]keymap.Pane, len(rs))
	for i, r := range rs {
		panes[i] = r.Keys()
	}
	return keymap.Default(panes...)
}

// IDs lists the panes' ids in order.
func (rs Registry) IDs() []ID {
	out := make([]ID, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

// Get returns the registration of a pane.
func (rs Registry) Get(id ID) (Registration, bool) {
	i := slices.IndexFunc(rs, func(r Registration) bool { return r.ID == id })
	if i < 0 {
		return Registration{}, false
	}
	return rs[i], true
}

// ByName finds a pane by its id, command, alias or number (1-based),
// case-insensitively: what --pane and the palette accept.
func (rs Registry) ByName(s string) (ID, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= len(rs) {
		return rs[n-1].ID, true
	}
	for _, r := range rs {
		if s == string(r.ID) || s == r.CommandName() || slices.Contains(r.Aliases, s) {
			return r.ID, true
		}
	}
	// The first word of a title, as a narrow tab row shows it ("5 Access"
	// for Access logs), when it names one pane only.
	var found []ID
	for _, r := range rs {
		if first, _, _ := strings.Cut(strings.ToLower(r.Title), " "); first == s {
			found = append(found, r.ID)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return "", false
}

// Commands lists the panes' command names in order ("alerts", "logs").
func (rs Registry) Commands() []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.CommandName()
	}
	return out
}

// PollDefaults are the panes' normal poll intervals by id: the keys the
// profile's [poll] table accepts.
func (rs Registry) PollDefaults() map[string]time.Duration {
	out := make(map[string]time.Duration, len(rs))
	for _, r := range rs {
		out[string(r.ID)] = r.Poll
	}
	return out
}

// Lookup returns the keymap's action of that name, or a zero Action (it
// matches no key) when km is nil or has no such action.
func Lookup(km *keymap.KeyMap, name string) keymap.Action {
	if km == nil {
		return keymap.Action{}
	}
	a, _ := km.Lookup(name)
	return a
}

var actionType = reflect.TypeOf(keymap.Action{})

// KeysOf fills a pane's keys struct from the keymap: each exported field of
// type keymap.Action gets the action named "<id>.<field>" with the field's
// first letter lowered (field CancelRestore of backups: backups.cancelRestore)
// or the name in its `keys` tag; an array of actions names its elements in
// its `keys` tag, separated by spaces. A name the keymap lacks gives a zero Action (it matches no key);
// MissingKeys finds those in a test.
func KeysOf[K any](km *keymap.KeyMap, id ID) K {
	type key struct {
		t  reflect.Type
		id ID
	}
	type read struct {
		km   *keymap.KeyMap
		ver  uint64
		keys K
	}
	ck := key{reflect.TypeFor[K](), id}
	if r, ok := keysCache.Load(ck); ok {
		if r := r.(read); r.km == km && km != nil && r.ver == km.Version() {
			return r.keys // panes ask on every frame: no reflection then
		}
	}
	var k K
	v := reflect.ValueOf(&k).Elem()
	for i, f := range keyFields[K](id) {
		for j, name := range f {
			field := v.Field(i)
			if field.Kind() == reflect.Array {
				field = field.Index(j)
			}
			field.Set(reflect.ValueOf(Lookup(km, name)))
		}
	}
	if km != nil {
		keysCache.Store(ck, read{km: km, ver: km.Version(), keys: k})
	}
	return k
}

// keysCache holds KeysOf's last answer per keys type and pane, with the
// keymap and its version it was read from.
var keysCache sync.Map

// keyFields are the action names of K's fields, by field index (nil for a
// field that is not an action).
func keyFields[K any](id ID) [][]string {
	t := reflect.TypeFor[K]()
	type key struct {
		t  reflect.Type
		id ID
	}
	if f, ok := keyFieldCache.Load(key{t, id}); ok {
		return f.([][]string)
	}
	out := readKeyFields(t, id)
	keyFieldCache.Store(key{t, id}, out)
	return out
}

// keyFieldCache keeps keyFields' answers: panes ask on every frame.
var keyFieldCache sync.Map

func readKeyFields(t reflect.Type, id ID) [][]string {
	out := make([][]string, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		switch {
		case !f.IsExported():
		case f.Type == actionType && f.Tag.Get("keys") != "":
			out[i] = []string{string(id) + "." + f.Tag.Get("keys")}
		case f.Type == actionType:
			out[i] = []string{string(id) + "." + strings.ToLower(f.Name[:1]) + f.Name[1:]}
		case f.Type.Kind() == reflect.Array && f.Type.Elem() == actionType:
			for _, n := range strings.Fields(f.Tag.Get("keys")) {
				out[i] = append(out[i], string(id)+"."+n)
			}
			for len(out[i]) < f.Type.Len() {
				out[i] = append(out[i], string(id)+".<no name in the keys tag>")
			}
		}
	}
	return out
}

// MissingKeys lists the names K's fields ask for that reg does not declare:
// a pane's test requires it to be empty, so a misspelt field cannot leave a
// key that silently does nothing.
func MissingKeys[K any](reg Registration) []string {
	declared := map[string]bool{}
	for _, a := range reg.Actions {
		declared[a.Name] = true
	}
	var missing []string
	for _, f := range keyFields[K](reg.ID) {
		for _, name := range f {
			if !declared[name] {
				missing = append(missing, name)
			}
		}
	}
	return missing
}
