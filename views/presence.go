package views

// Presence is what a dashboard served to a team (`dbadmin-tui serve`) knows
// of the other people on it; nil in the single-user dashboard.
type Presence interface {
	// Others are the names of the other people connected now.
	Others() []string
	// Acting is who else is acting on the alert ("bob: acknowledging"), or
	// "".
	Acting(groupID, alertID string) string
	// AckedBy is the person who acknowledged the alert here lately, or "".
	AckedBy(groupID, alertID string) string
	// Doing tells the others what this session is doing to which alerts
	// ("acknowledging": its dialog is open); none: nothing any more.
	Doing(what string, alerts []AlertRef)
}

// AlertRef names an alert in its project.
type AlertRef struct{ GroupID, AlertID string }

// PresenceMsg tells a served pane that who acts on what changed: a pane
// that marks its rows with it (Presence.Acting) marks them again.
type PresenceMsg struct{}

// editorRefused, when set, is why no editor may run: under `serve` the
// editor would run on the server, with its shell escapes.
var editorRefused string

// RefuseEditor makes every Edit answer with why instead of running an
// editor (set once at start, before any dashboard runs).
func RefuseEditor(why string) { editorRefused = why }
