package alerts

import (
	"strings"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// Alerts carry no severity in the API. The pane derives one the way an
// on-call engineer reads them:
//
//  1. the severityOverride of the configuration that raised the alert
//     (configurations are fetched once per refresh and joined on
//     alertConfigId), else
//  2. a severity by event type: down hosts, lost primaries and blocked
//     writes are CRITICAL; failures ERROR; thresholds and things about to
//     run out WARNING; everything else (settings changed, invoices, org
//     events) INFO.
func severityOf(a apiclient.Alert, configs map[string]apiclient.AlertConfig) apiclient.Severity {
	return severityFor(a.AlertConfigID, a.EventTypeName, configs)
}

// severityFor is severityOf by the alert's configuration and event type.
func severityFor(configID, event string, configs map[string]apiclient.AlertConfig) apiclient.Severity {
	if c, ok := configs[configID]; ok && c.SeverityOverride != "" {
		return c.SeverityOverride
	}
	return eventSeverity(event)
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

func eventSeverity(event string) apiclient.Severity {
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

// loud reports whether a new open alert of this severity rings the bell.
func loud(s apiclient.Severity) bool {
	return s == apiclient.SeverityCritical || s == apiclient.SeverityError
}
