package keymap

// Global actions work in every pane.
type Global struct {
	Pane1, Pane2, Pane3, Pane4, Pane5, Pane6 Action
	NextPane, PrevPane                       Action
	Palette, Filter, Help, Close             Action
	Refresh, Pause, Yank, Quit               Action
	Context                                  Action // the org/project/cluster picker
}

// Panes returns the six pane-jump actions in order.
func (g *Global) Panes() []*Action {
	return []*Action{&g.Pane1, &g.Pane2, &g.Pane3, &g.Pane4, &g.Pane5, &g.Pane6}
}

func (g *Global) actions() []*Action {
	return append(g.Panes(), &g.NextPane, &g.PrevPane, &g.Palette, &g.Filter, &g.Help,
		&g.Close, &g.Refresh, &g.Pause, &g.Yank, &g.Quit, &g.Context)
}

// Navigation moves a cursor or a viewport.
type Navigation struct {
	Up, Down, Home, End, PageUp, PageDown, HalfUp, HalfDown Action
}

func (n *Navigation) actions() []*Action {
	return []*Action{&n.Up, &n.Down, &n.Home, &n.End, &n.PageUp, &n.PageDown, &n.HalfUp, &n.HalfDown}
}

// Table acts on a components.Table.
type Table struct {
	Mark, SortNext, SortReverse, ClearMarks Action
}

func (t *Table) actions() []*Action {
	return []*Action{&t.Mark, &t.SortNext, &t.SortReverse, &t.ClearMarks}
}

// Dialog keys work inside confirms, forms and pickers. Text fields take
// letters as input, so Yes/No only apply to plain confirms.
type Dialog struct {
	Submit, Cancel, Yes, No     Action
	NextField, PrevField        Action
	Left, Right, Up, Down, Flip Action
}

func (d *Dialog) actions() []*Action {
	return []*Action{&d.Submit, &d.Cancel, &d.Yes, &d.No, &d.NextField, &d.PrevField,
		&d.Left, &d.Right, &d.Up, &d.Down, &d.Flip}
}

// Alerts pane. Marking rows is Table.Mark. The configuration editors come
// in two flavours: a form, and the JSON body in $EDITOR.
type Alerts struct {
	Detail, Ack, Unack, StatusFilter, Configs, Toggle, Delete Action
	NewConfig, NewConfigJSON, EditConfig, EditConfigJSON      Action
}

func (a *Alerts) actions() []*Action {
	return []*Action{&a.Detail, &a.Ack, &a.Unack, &a.StatusFilter, &a.Configs, &a.Toggle, &a.Delete,
		&a.NewConfig, &a.NewConfigJSON, &a.EditConfig, &a.EditConfigJSON}
}

// Backups pane. NewBucket and EditSchedule are offered only in the buckets
// and schedule views.
type Backups struct {
	Snapshot, Restore, CancelRestore, Expiration, Delete, Export, CycleViews Action
	NewBucket, EditSchedule                                                  Action
}

func (b *Backups) actions() []*Action {
	return []*Action{&b.Snapshot, &b.Restore, &b.CancelRestore, &b.Expiration, &b.Delete, &b.Export, &b.CycleViews,
		&b.NewBucket, &b.EditSchedule}
}

// Search (search indexes) pane.
type Search struct {
	New, Edit, Delete, Analyzers, Detail Action
}

func (s *Search) actions() []*Action {
	return []*Action{&s.New, &s.Edit, &s.Delete, &s.Analyzers, &s.Detail}
}

// AccessLogs pane.
type AccessLogs struct {
	Follow, FailuresOnly, End, Wrap, Timezone, IPFilter, Search, NextMatch, PrevMatch, Save Action
	Hosts, Since, UserFilter, Raw                                                           Action
}

func (l *AccessLogs) actions() []*Action {
	return []*Action{&l.Follow, &l.FailuresOnly, &l.End, &l.Wrap, &l.Timezone, &l.IPFilter,
		&l.Search, &l.NextMatch, &l.PrevMatch, &l.Save, &l.Hosts, &l.Since, &l.UserFilter, &l.Raw}
}

// Migration (live migration) pane.
type Migration struct {
	LinkToken, Validate, Start, Cutover, Presentation, DropDestination Action
}

func (m *Migration) actions() []*Action {
	return []*Action{&m.LinkToken, &m.Validate, &m.Start, &m.Cutover, &m.Presentation, &m.DropDestination}
}

// Settings pane.
type Settings struct {
	Auditing, EditFilter, CustomDNS, NewRole, Authorize, Deauthorize Action
}

func (s *Settings) actions() []*Action {
	return []*Action{&s.Auditing, &s.EditFilter, &s.CustomDNS, &s.NewRole, &s.Authorize, &s.Deauthorize}
}

// KeyMap is every binding of the app.
type KeyMap struct {
	Global     Global
	Navigation Navigation
	Table      Table
	Dialog     Dialog
	Alerts     Alerts
	Backups    Backups
	Search     Search
	AccessLogs AccessLogs
	Migration  Migration
	Settings   Settings
}

// Default returns a fresh KeyMap with the built-in bindings.
func Default() *KeyMap {
	a := newAction
	return &KeyMap{
		Global: Global{
			Pane1:    a("global.pane1", "1", "alerts", "1"),
			Pane2:    a("global.pane2", "2", "backups", "2"),
			Pane3:    a("global.pane3", "3", "search indexes", "3"),
			Pane4:    a("global.pane4", "4", "access logs", "4"),
			Pane5:    a("global.pane5", "5", "migration", "5"),
			Pane6:    a("global.pane6", "6", "settings", "6"),
			NextPane: a("global.nextPane", "tab", "next pane", "tab"),
			PrevPane: a("global.prevPane", "shift+tab", "previous pane", "shift+tab"),
			Palette:  a("global.palette", ":", "command palette", ":"),
			Filter:   a("global.filter", "/", "filter", "/"),
			Help:     a("global.help", "?", "help", "?"),
			Close:    a("global.close", "esc", "close / back", "esc"),
			Refresh:  a("global.refresh", "r", "refresh", "r"),
			Pause:    a("global.pause", "p", "pause live updates", "p"),
			Yank:     a("global.yank", "y", "copy", "y"),
			Quit:     a("global.quit", "q", "quit", "q", "ctrl+c"),
			Context:  a("global.context", "@/ctrl+o", "org/project/cluster picker", "@", "ctrl+o"),
		},
		Navigation: Navigation{
			Up:       a("nav.up", "↑/k", "up", "up", "k"),
			Down:     a("nav.down", "↓/j", "down", "down", "j"),
			Home:     a("nav.home", "g/home", "top", "g", "home"),
			End:      a("nav.end", "G/end", "bottom", "G", "end"),
			PageUp:   a("nav.pageUp", "pgup", "page up", "pgup"),
			PageDown: a("nav.pageDown", "pgdn", "page down", "pgdown"),
			HalfUp:   a("nav.halfUp", "ctrl+u", "half page up", "ctrl+u"),
			HalfDown: a("nav.halfDown", "ctrl+d", "half page down", "ctrl+d"),
		},
		Table: Table{
			Mark:        a("table.mark", "space", "mark", "space"),
			SortNext:    a("table.sortNext", "o", "sort by next column", "o"),
			SortReverse: a("table.sortReverse", "O", "reverse sort", "O"),
			ClearMarks:  a("table.clearMarks", "ctrl+\\", "clear marks", "ctrl+\\"),
		},
		Dialog: Dialog{
			Submit:    a("dialog.submit", "enter", "submit", "enter"),
			Cancel:    a("dialog.cancel", "esc", "cancel", "esc"),
			Yes:       a("dialog.yes", "y", "yes", "y", "Y"),
			No:        a("dialog.no", "n", "no", "n", "N"),
			NextField: a("dialog.nextField", "tab", "next field", "tab"),
			PrevField: a("dialog.prevField", "shift+tab", "previous field", "shift+tab"),
			Left:      a("dialog.left", "←", "previous choice", "left"),
			Right:     a("dialog.right", "→", "next choice", "right"),
			Up:        a("dialog.up", "↑", "up", "up", "ctrl+p"),
			Down:      a("dialog.down", "↓", "down", "down", "ctrl+n"),
			Flip:      a("dialog.flip", "space", "toggle", "space"),
		},
		Alerts: Alerts{
			Detail:         a("alerts.detail", "enter", "details", "enter").op("getAlert"),
			Ack:            a("alerts.ack", "a", "acknowledge", "a").op("acknowledgeAlert"),
			Unack:          a("alerts.unack", "u", "unacknowledge", "u").op("acknowledgeAlert"),
			StatusFilter:   a("alerts.statusFilter", "s", "status filter", "s"),
			Configs:        a("alerts.configs", "c", "alert configs", "c").op("listAlertConfigurations"),
			Toggle:         a("alerts.toggle", "t", "enable/disable config", "t").op("toggleAlertConfiguration"),
			Delete:         a("alerts.delete", "d", "delete config", "d").op("deleteAlertConfiguration"),
			NewConfig:      a("alerts.newConfig", "n", "new config (form)", "n").op("createAlertConfiguration").helpOnly(),
			NewConfigJSON:  a("alerts.newConfigJSON", "N", "new config ($EDITOR)", "N").op("createAlertConfiguration").helpOnly(),
			EditConfig:     a("alerts.editConfig", "e", "edit config (form)", "e").op("updateAlertConfiguration").helpOnly(),
			EditConfigJSON: a("alerts.editConfigJSON", "E", "edit config ($EDITOR)", "E").op("updateAlertConfiguration").helpOnly(),
		},
		Backups: Backups{
			Snapshot:      a("backups.snapshot", "n", "take snapshot", "n").op("takeSnapshot"),
			Restore:       a("backups.restore", "R", "restore", "R").op("createBackupRestoreJob"),
			CancelRestore: a("backups.cancelRestore", "x", "cancel restore", "x").op("cancelBackupRestoreJob").dangerous(),
			Expiration:    a("backups.expiration", "e", "change expiration", "e").op("updateSnapshotRetention"),
			Delete:        a("backups.delete", "d", "delete snapshot", "d").op("deleteReplicaSetBackup").dangerous(),
			Export:        a("backups.export", "E", "export snapshot", "E").op("createBackupExportJob"),
			// Tab cycles snapshots/restores/exports here; shift+tab and 1-6
			// still switch panes.
			CycleViews:   a("backups.cycleViews", "tab", "cycle views", "tab").shadows("global.nextPane"),
			NewBucket:    a("backups.newBucket", "b", "new export bucket", "b").op("createExportBucket").helpOnly(),
			EditSchedule: a("backups.editSchedule", "s", "edit schedule", "s").op("updateBackupSchedule").helpOnly(),
		},
		Search: Search{
			New:       a("search.new", "n", "new index", "n").op("createAtlasSearchIndex"),
			Edit:      a("search.edit", "e", "edit index", "e").op("updateAtlasSearchIndex"),
			Delete:    a("search.delete", "d", "delete index", "d").op("deleteAtlasSearchIndex").dangerous(),
			Analyzers: a("search.analyzers", "A", "analyzers", "A").op("listAtlasSearchAnalyzers"),
			Detail:    a("search.detail", "enter", "details", "enter").op("getAtlasSearchIndex"),
		},
		AccessLogs: AccessLogs{
			Follow:       a("accesslogs.follow", "f", "follow", "f").op("listAccessLogsByClusterName"),
			FailuresOnly: a("accesslogs.failuresOnly", "F", "failures only", "F"),
			End:          a("accesslogs.end", "G", "end + resume", "G").shadows("nav.end"),
			Wrap:         a("accesslogs.wrap", "w", "wrap", "w"),
			Timezone:     a("accesslogs.timezone", "t", "local/UTC", "t"),
			IPFilter:     a("accesslogs.ipFilter", "i", "IP filter", "i"),
			Search:       a("accesslogs.search", "/", "search", "/").shadows("global.filter"),
			NextMatch:    a("accesslogs.nextMatch", "n", "next match", "n"),
			PrevMatch:    a("accesslogs.prevMatch", "N", "previous match", "N"),
			Save:         a("accesslogs.save", "s", "save to file", "s"),
			// Hosts lists the cluster's hosts (or, with no cluster chosen,
			// the project's clusters) to pick what is tailed.
			Hosts:      a("accesslogs.hosts", "h", "pick host", "h").op("listAtlasProcesses").helpOnly(),
			Since:      a("accesslogs.since", "S", "since 5m/15m/1h/24h", "S").op("listAccessLogsByClusterName").helpOnly(),
			UserFilter: a("accesslogs.userFilter", "u", "user filter", "u").helpOnly(),
			Raw:        a("accesslogs.raw", "l", "raw logLine", "l").helpOnly(),
		},
		Migration: Migration{
			LinkToken: a("migration.linkToken", "l", "link token", "l").op("createLinkToken"),
			Validate:  a("migration.validate", "v", "validate", "v").op("validateMigration"),
			// Starting may drop the destination's collections.
			Start:        a("migration.start", "m", "start migration", "m").op("createPushMigration").dangerous(),
			Cutover:      a("migration.cutover", "C", "cut over", "C").op("cutoverMigration").dangerous(),
			Presentation: a("migration.presentation", "P", "presentation", "P"),
			// Dropping the destination's collections happens when the
			// migration starts, so the toggle is judged like Start.
			DropDestination: a("migration.dropDestination", "D", "drop destination data on/off", "D").op("createPushMigration").dangerous().helpOnly(),
		},
		Settings: Settings{
			Auditing:    a("settings.auditing", "a", "auditing on/off", "a").op("updateAuditingConfiguration"),
			EditFilter:  a("settings.editFilter", "e", "edit audit filter", "e").op("updateAuditingConfiguration"),
			CustomDNS:   a("settings.customDNS", "d", "custom DNS on/off", "d").op("toggleAwsCustomDns"),
			NewRole:     a("settings.newRole", "n", "new access role", "n").op("createCloudProviderAccessRole"),
			Authorize:   a("settings.authorize", "z", "authorize role", "z").op("authorizeCloudProviderAccessRole"),
			Deauthorize: a("settings.deauthorize", "x", "deauthorize role", "x").op("deauthorizeCloudProviderAccessRole"),
		},
	}
}

// scopeActions returns the actions of one scope, in help order.
func (km *KeyMap) scopeActions(s Scope) []*Action {
	switch s {
	case ScopeGlobal:
		return km.Global.actions()
	case ScopeNavigation:
		return km.Navigation.actions()
	case ScopeTable:
		return km.Table.actions()
	case ScopeDialog:
		return km.Dialog.actions()
	case ScopeAlerts:
		return km.Alerts.actions()
	case ScopeBackups:
		return km.Backups.actions()
	case ScopeSearch:
		return km.Search.actions()
	case ScopeAccessLogs:
		return km.AccessLogs.actions()
	case ScopeMigration:
		return km.Migration.actions()
	case ScopeSettings:
		return km.Settings.actions()
	}
	return nil
}

// AllScopes lists every scope in help order.
func AllScopes() []Scope {
	return []Scope{ScopeGlobal, ScopeNavigation, ScopeTable, ScopeDialog, ScopeAlerts, ScopeBackups,
		ScopeSearch, ScopeAccessLogs, ScopeMigration, ScopeSettings}
}

// Actions returns copies of every action, scope by scope.
func (km *KeyMap) Actions() []Action {
	var out []Action
	for _, s := range AllScopes() {
		for _, a := range km.scopeActions(s) {
			out = append(out, *a)
		}
	}
	return out
}

// Scope returns copies of the actions of one scope.
func (km *KeyMap) Scope(s Scope) []Action {
	var out []Action
	for _, a := range km.scopeActions(s) {
		out = append(out, *a)
	}
	return out
}

// Lookup returns the action with the given stable name.
func (km *KeyMap) Lookup(name string) (Action, bool) {
	if a := km.find(name); a != nil {
		return *a, true
	}
	return Action{}, false
}

func (km *KeyMap) find(name string) *Action {
	for _, s := range AllScopes() {
		for _, a := range km.scopeActions(s) {
			if a.Name == name {
				return a
			}
		}
	}
	return nil
}

// Clone returns an independent copy: key.Binding's setters replace its key
// slice rather than write into it, so a value copy shares nothing mutable.
func (km *KeyMap) Clone() *KeyMap {
	c := *km
	return &c
}
