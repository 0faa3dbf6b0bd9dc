package alerts

import (
	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/views/alertkit"
)

// Alerts carry no severity in the API: the pane shows alertkit.Severity
// (the configuration's severityOverride, else by event type), the very
// function the Triage board uses, so the two cannot disagree.
func severityOf(a apiclient.Alert, configs map[string]apiclient.AlertConfig) apiclient.Severity {
	return alertkit.Severity(a, configs)
}

// loud reports whether a new open alert of this severity rings the bell.
func loud(s apiclient.Severity) bool {
	return s == apiclient.SeverityCritical || s == apiclient.SeverityError
}
