// Package alertkit is what the Alerts pane and the Triage board share about
// alerts, so the two cannot disagree: the severity an alert is shown with
// and the acknowledgement dialog (its fields, the until choices and the
// rules a value must meet).
package alertkit

import (
	"strings"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// Severity is an alert's severity as the dashboard shows it. Alerts carry
// none in the API; it is derived the way an on-call engineer reads them:
//
//  1. the severityOverride of the configuration that raised the alert
//     (configs by id, joined on alertConfigId), else
//  2. EventSeverity of its event type.
func Severity(a apiclient.Alert, configs map[string]apiclient.AlertConfig) apiclient.Severity {
	if c, ok := configs[a.AlertConfigID]; ok && c.SeverityOverride != "" {
		return c.SeverityOverride
	}
	return EventSeverity(a.EventTypeName)
}

var criticalEvents = map[string]bool{
	"HOST_DOWN": true, "NO_PRIMARY": true, "CLUSTER_BLOCK_WRITE": true, "PRIMARY_ELECTED": false,
	"AUTO_HEALING_CANNOT_REPAIR_INTERNAL": true, "AUTO_HEALING_CANNOT_RESYNC_INTERNAL": true,
	"AUTO_HEALING_REQUESTED_CRITICAL_INSTANCE_POWER_CYCLE": true,
}

var warningEvents = map[string]bool{
	"OUTSIDE_METRIC_THRESHOLD": true, "OUTSIDE_SERVERLESS_METRIC_THRESHOLD": true, "OUTSIDE_FLEX_METRIC_THRESHOLD": true,
	"REPLICATION_OPLOG_WINDOW_RUNNING_OUT": true, "CREDIT_CARD_ABOUT_TO_EXPIRE": true,
	"AUTO_HEALING_REQUESTED_NODE_RESYNC": true, "AUTO_HEALING_REQUESTED_INSTANCE_REPLACEMENT": true,
	"CLUSTER_MONGOS_IS_MISSING": false,
}

// EventSeverity is the severity of an event type when no configuration
// overrides it: down hosts, lost primaries and blocked writes are
// CRITICAL; failures ERROR; thresholds and things about to run out
// WARNING; everything else (settings changed, invoices, org events) INFO.
func EventSeverity(event string) apiclient.Severity {
	switch {
	case criticalEvents[event] || strings.HasSuffix(event, "_DOWN"):
		return apiclient.SeverityCritical
	case event == "CLUSTER_MONGOS_IS_MISSING", strings.Contains(event, "FAIL"), strings.HasSuffix(event, "_NOT_PAID"):
		return apiclient.SeverityError
	case warningEvents[event], strings.Contains(event, "THRESHOLD"), strings.Contains(event, "RUNNING_OUT"), strings.Contains(event, "ABOUT_TO_EXPIRE"):
		return apiclient.SeverityWarning
	}
	return apiclient.SeverityInfo
}
