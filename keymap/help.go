package keymap

import (
	"fmt"
	"slices"
)

// Disable turns an action off with a reason shown in help ("needs
// PROJECT_OWNER", "read-only mode"). A disabled action never matches a key.
func (km *KeyMap) Disable(name, reason string) error {
	a := km.find(name)
	if a == nil {
		return fmt.Errorf("disable: unknown action %q", name)
	}
	if reason == "" {
		reason = "disabled"
	}
	a.DisabledReason = reason
	a.Binding.SetEnabled(false)
	km.version++
	return nil
}

// Enable turns an action back on.
func (km *KeyMap) Enable(name string) error {
	a := km.find(name)
	if a == nil {
		return fmt.Errorf("enable: unknown action %q", name)
	}
	a.DisabledReason = ""
	a.Binding.SetEnabled(true)
	km.version++
	return nil
}

// Gate enables or disables every action that calls an operation (Op != "")
// by asking allowed, typically a wrapper over the gate's role check and
// read-only mode. Local actions are left alone.
func (km *KeyMap) Gate(allowed func(a Action) (ok bool, reason string)) {
	km.version++
	for _, s := range km.AllScopes() {
		for _, a := range km.scopeActions(s) {
			if a.Op == "" {
				continue
			}
			if ok, reason := allowed(*a); ok {
				a.DisabledReason = ""
				a.Binding.SetEnabled(true)
			} else {
				if reason == "" {
					reason = "not allowed"
				}
				a.DisabledReason = reason
				a.Binding.SetEnabled(false)
			}
		}
	}
}

// Disabled lists the disabled actions of a scope, with their reasons.
func (km *KeyMap) Disabled(s Scope) []Action {
	var out []Action
	for _, a := range km.scopeActions(s) {
		if a.DisabledReason != "" {
			out = append(out, *a)
		}
	}
	return out
}

// HelpEntry is one line of the help overlay. Disabled entries are kept so
// the overlay can grey them out and say why.
type HelpEntry struct {
	Name      string
	Key       string
	Desc      string
	Dangerous bool
	Disabled  bool
	Reason    string
}

// HelpGroup is one titled column of the help overlay.
type HelpGroup struct {
	Scope   Scope
	Title   string
	Entries []HelpEntry
}

// HelpGroups returns the help overlay's content for a pane (or for
// ScopeDialog): the pane's actions as the pane offers them now (its view and
// state decide which, and the root's gate has disabled what it refuses),
// then the table, navigation and global ones. Unbound actions are left out;
// disabled ones are included with their reason.
func (km *KeyMap) HelpGroups(pane Scope, actions []Action) []HelpGroup {
	var groups []HelpGroup
	for _, s := range km.helpScopes(pane) {
		g := HelpGroup{Scope: s, Title: km.Title(s)}
		list := km.Scope(s)
		paneOwn := s == pane && km.pane(s) != nil
		if paneOwn {
			list = actions
		}
		for _, a := range list {
			if len(a.Binding.Keys()) == 0 {
				continue
			}
			h := a.Binding.Help()
			e := HelpEntry{
				Name: a.Name, Key: h.Key, Desc: h.Desc, Dangerous: a.Dangerous,
				Disabled: a.DisabledReason != "", Reason: a.DisabledReason,
			}
			// A key the pane binds itself runs the pane's action here.
			if s == ScopeGlobal && km.pane(pane) != nil {
				if by := shadowedBy(a, actions); by != nil {
					e.Disabled, e.Reason = true, "here "+by.Binding.Help().Key+" is "+by.Binding.Help().Desc
				}
			}
			g.Entries = append(g.Entries, e)
		}
		if len(g.Entries) > 0 {
			groups = append(groups, g)
		}
	}
	return groups
}

func (km *KeyMap) helpScopes(pane Scope) []Scope {
	switch {
	case pane == ScopeDialog:
		return []Scope{ScopeDialog}
	case km.pane(pane) == nil:
		return []Scope{ScopeGlobal, ScopeNavigation}
	}
	scopes := []Scope{pane}
	if km.usesTable(pane) {
		scopes = append(scopes, ScopeTable)
	}
	return append(scopes, ScopeNavigation, ScopeGlobal)
}

// Footer is the one-line key summary of a pane: its actions as offered now
// (but not the HelpOnly ones), then filter, help and quit. The caller
// drops the disabled ones.
//
// A global key the pane binds to an action of its own (the access log's
// `/` searches) runs the pane's action, so the global one is left out.
func (km *KeyMap) Footer(actions []Action) []Action {
	var out []Action
	for _, a := range actions {
		if !a.HelpOnly {
			out = append(out, a)
		}
	}
	for _, g := range []Action{km.Global.Filter, km.Global.Help, km.Global.Quit} {
		if shadowedBy(g, actions) == nil {
			out = append(out, g)
		}
	}
	return out
}

// shadowedBy is the pane action that takes one of g's keys, or nil.
func shadowedBy(g Action, actions []Action) *Action {
	for _, k := range g.Binding.Keys() {
		for i := range actions {
			if slices.Contains(actions[i].Binding.Keys(), k) {
				return &actions[i]
			}
		}
	}
	return nil
}
