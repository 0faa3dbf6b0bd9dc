package keymap

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Apply rebinds actions by their stable names ("alerts.ack",
// "global.quit") to new key lists. An empty list unbinds the action. Apply
// is all or nothing: an unknown name, or a key bound to two actions that are
// active at the same time, refuses every override and leaves the KeyMap as
// it was. The error names each problem.
func (km *KeyMap) Apply(overrides map[string][]string) error {
	next := km.Clone()
	names := make([]string, 0, len(overrides))
	for n := range overrides {
		names = append(names, n)
	}
	sort.Strings(names)
	var errs []error
	for _, name := range names {
		a := next.find(name)
		if a == nil {
			errs = append(errs, fmt.Errorf("unknown action %q (for example %q)", name, "alerts.ack"))
			continue
		}
		keys := normalizeKeys(overrides[name])
		desc := a.Binding.Help().Desc
		a.Binding.SetKeys(keys...)
		a.Binding.SetHelp(helpLabel(keys), desc)
		a.Binding.SetEnabled(a.DisabledReason == "")
	}
	if len(errs) == 0 {
		if err := next.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("key bindings: %w", errors.Join(errs...))
	}
	v := km.version
	*km = *next
	km.version = v + 1
	return nil
}

// normalizeKeys trims keys and spells the space bar the way Bubble Tea v2
// reports it.
func normalizeKeys(in []string) []string {
	out := make([]string, 0, len(in))
	for _, k := range in {
		if k == " " {
			k = "space"
		}
		k = strings.TrimSpace(k)
		if k != "" {
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

var keyGlyphs = map[string]string{"up": "↑", "down": "↓", "left": "←", "right": "→"}

func helpLabel(keys []string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		if g, ok := keyGlyphs[k]; ok {
			k = g
		}
		parts[i] = k
	}
	return strings.Join(parts, "/")
}

// activeSets lists the groups of scopes that receive keys at the same time.
func (km *KeyMap) activeSets() [][]Scope {
	sets := [][]Scope{{ScopeGlobal, ScopeNavigation}}
	for _, p := range km.PaneScopes() {
		set := []Scope{ScopeGlobal, ScopeNavigation}
		if km.usesTable(p) {
			set = append(set, ScopeTable)
		}
		sets = append(sets, append(set, p))
	}
	return append(sets, []Scope{ScopeDialog})
}

// Validate reports every key that is bound to two actions active at the same
// time (global, navigation and table keys together with one pane's keys, or
// two dialog keys), except where one action declares that it Shadows the
// other.
func (km *KeyMap) Validate() error {
	seen := map[string]bool{}
	var msgs []string
	for _, set := range km.activeSets() {
		owner := map[string]*Action{}
		for _, s := range set {
			for _, a := range km.scopeActions(s) {
				for _, k := range a.Binding.Keys() {
					prev, dup := owner[k]
					if !dup {
						owner[k] = a
						continue
					}
					if prev == a || prev.Shadows == a.Name || a.Shadows == prev.Name {
						continue
					}
					msg := fmt.Sprintf("key %q is bound to both %s and %s", k, prev.Name, a.Name)
					if !seen[msg] {
						seen[msg] = true
						msgs = append(msgs, msg)
					}
				}
			}
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return errors.New(strings.Join(msgs, "; "))
}
