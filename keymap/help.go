package keymap

import (
	"fmt"

	"charm.land/bubbles/v2/key"
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
	return nil
}

// Gate enables or disables every action that calls an operation (Op != "")
// by asking allowed, typically a wrapper over the gate's role check and
// read-only mode. Local actions are left alone.
func (km *KeyMap) Gate(allowed func(a Action) (ok bool, reason string)) {
	for _, s := range AllScopes() {
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
// ScopeDialog): the pane's actions, then the table, navigation and global
// ones. Unbound actions are left out; disabled ones are included with their
// reason.
func (km *KeyMap) HelpGroups(pane Scope) []HelpGroup {
	var groups []HelpGroup
	for _, s := range helpScopes(pane) {
		g := HelpGroup{Scope: s, Title: s.Title()}
		for _, a := range km.scopeActions(s) {
			if len(a.Binding.Keys()) == 0 {
				continue
			}
			h := a.Binding.Help()
			g.Entries = append(g.Entries, HelpEntry{
				Name: a.Name, Key: h.Key, Desc: h.Desc, Dangerous: a.Dangerous,
				Disabled: a.DisabledReason != "", Reason: a.DisabledReason,
			})
		}
		if len(g.Entries) > 0 {
			groups = append(groups, g)
		}
	}
	return groups
}

func helpScopes(pane Scope) []Scope {
	switch pane {
	case ScopeDialog:
		return []Scope{ScopeDialog}
	case ScopeGlobal, ScopeNavigation, ScopeTable, "":
		return []Scope{ScopeGlobal, ScopeNavigation}
	}
	scopes := []Scope{pane}
	if pane.usesTable() {
		scopes = append(scopes, ScopeTable)
	}
	return append(scopes, ScopeNavigation, ScopeGlobal)
}

// Help is a bubbles help.KeyMap for one pane together with the global keys.
type Help struct {
	km   *KeyMap
	pane Scope
}

// HelpFor returns the help.KeyMap for a pane (or ScopeDialog).
func (km *KeyMap) HelpFor(pane Scope) Help { return Help{km: km, pane: pane} }

// ShortHelp is the one-line footer: the pane's enabled actions (but not
// the HelpOnly ones), then filter, help and quit. Disabled bindings are dropped by bubbles/help itself.
func (h Help) ShortHelp() []key.Binding {
	if h.pane == ScopeDialog {
		d := h.km.Dialog
		return []key.Binding{d.Submit.Binding, d.Cancel.Binding, d.NextField.Binding}
	}
	var out []key.Binding
	if h.pane != ScopeGlobal && h.pane != ScopeNavigation && h.pane != ScopeTable {
		for _, a := range h.km.scopeActions(h.pane) {
			if !a.HelpOnly {
				out = append(out, a.Binding)
			}
		}
	}
	return append(out, h.km.Global.Filter.Binding, h.km.Global.Help.Binding, h.km.Global.Quit.Binding)
}

// FullHelp is one column per scope, pane first.
func (h Help) FullHelp() [][]key.Binding {
	var cols [][]key.Binding
	for _, s := range helpScopes(h.pane) {
		var col []key.Binding
		for _, a := range h.km.scopeActions(s) {
			col = append(col, a.Binding)
		}
		cols = append(cols, col)
	}
	return cols
}
