// Package keymap holds every key binding of the dashboard in one place, with
// help text, the catalog operation each action calls and whether it is
// dangerous. A KeyMap is a value: build one with Default, change it with
// Apply (user overrides) and Disable (role gating), and hand it to the root
// model; there is no package-level mutable state.
package keymap

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Scope is a group of actions that are shown together in help and checked
// together for conflicts.
type Scope string

// Scopes. Global, Navigation and (for table panes) Table are active together
// with one pane scope; Dialog is active alone while a dialog is open. Pane
// scopes are not listed here: each pane brings its own (see Pane).
const (
	ScopeGlobal     Scope = "global"
	ScopeNavigation Scope = "nav"
	ScopeTable      Scope = "table"
	ScopeDialog     Scope = "dialog"
)

// Title is the human name of a shared scope, for help headings; a pane
// scope's title comes from its Pane.
func (s Scope) Title() string {
	switch s {
	case ScopeGlobal:
		return "Global"
	case ScopeNavigation:
		return "Navigation"
	case ScopeTable:
		return "Table"
	case ScopeDialog:
		return "Dialog"
	}
	return string(s)
}

// Pane is what the keymap knows of one pane: its scope (the prefix of its
// action names), its title, the help text of its jump key, whether the Table
// scope is active together with it, and its actions with their default keys.
type Pane struct {
	Scope   Scope
	Title   string
	Jump    string // the jump key's help ("search indexes")
	Table   bool
	Actions []Action
}

// Action is one thing the user can do, with the key(s) that do it.
type Action struct {
	// Name is the stable name used in config overrides, e.g. "alerts.ack".
	Name string
	// Binding holds the keys and the help text. A disabled binding never
	// matches and is hidden by bubbles/help.
	Binding key.Binding
	// Op is the catalog operation id the action calls, e.g.
	// "acknowledgeAlert"; empty for purely local actions.
	Op string
	// Dangerous marks destructive actions: they need a confirmation whose
	// default is No and are disabled in read-only mode.
	Dangerous bool
	// Shadows names an action of a wider scope that this one deliberately
	// replaces while its pane is active (the access-log pane's `/` searches
	// the log instead of filtering a table). The shared key is not a
	// conflict.
	Shadows string
	// HelpOnly actions are listed in the ? help but left out of the
	// one-line footer, which has room for a pane's main actions only; the
	// pane names them in its own hints where they apply.
	HelpOnly bool
	// DisabledReason says why the action is disabled (e.g. "needs
	// PROJECT_OWNER", "read-only mode"); empty when enabled.
	DisabledReason string
}

// Matches reports whether a key press triggers the action. Disabled actions
// never match.
func (a Action) Matches(msg tea.KeyPressMsg) bool { return key.Matches(msg, a.Binding) }

// Enabled reports whether the action is enabled.
func (a Action) Enabled() bool { return a.Binding.Enabled() }

// Keys returns the keys bound to the action.
func (a Action) Keys() []string { return a.Binding.Keys() }

// Help returns the help key label and description.
func (a Action) Help() key.Help { return a.Binding.Help() }

// Scope returns the scope part of the action name ("alerts" for "alerts.ack").
func (a Action) Scope() Scope {
	for i := 0; i < len(a.Name); i++ {
		if a.Name[i] == '.' {
			return Scope(a.Name[:i])
		}
	}
	return Scope(a.Name)
}

// NewAction builds an action; the first key is shown in help unless helpKey
// is given.
func NewAction(name, helpKey, desc string, keys ...string) Action {
	if helpKey == "" && len(keys) > 0 {
		helpKey = keys[0]
	}
	return Action{
		Name:    name,
		Binding: key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc)),
	}
}

// Calls sets the catalog operation the action calls.
func (a Action) Calls(op string) Action { a.Op = op; return a }

// AsDangerous marks a destructive action.
func (a Action) AsDangerous() Action { a.Dangerous = true; return a }

// Replacing declares that the action deliberately shadows a wider one.
func (a Action) Replacing(name string) Action { a.Shadows = name; return a }

// InHelpOnly keeps the action out of the footer.
func (a Action) InHelpOnly() Action { a.HelpOnly = true; return a }

// Disabled returns a copy turned off with a reason (a view's state refuses
// it: "no migration started"); help and the footer grey it out and the root
// says why when its key is pressed.
func (a Action) Disabled(reason string) Action {
	a.Binding.SetEnabled(false)
	a.DisabledReason = reason
	return a
}

// WithDesc returns a copy with another help text, for an action that means
// something else in one view ("delete bucket").
func (a Action) WithDesc(desc string) Action {
	a.Binding.SetHelp(a.Help().Key, desc)
	return a
}
