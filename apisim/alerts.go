package apisim

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// Alert configurations and alerts.

type Matcher struct {
	FieldName string `json:"fieldName"`
	Operator  string `json:"operator"`
	Value     string `json:"value"`
}

type AlertConfig struct {
	ID               string           `json:"id"`
	GroupID          string           `json:"groupId"`
	Created          time.Time        `json:"created"`
	Updated          time.Time        `json:"updated"`
	Enabled          bool             `json:"enabled"`
	EventTypeName    string           `json:"eventTypeName"`
	Matchers         []Matcher        `json:"matchers"`
	Notifications    []map[string]any `json:"notifications"`
	SeverityOverride string           `json:"severityOverride,omitempty"`
	MetricThreshold  map[string]any   `json:"metricThreshold,omitempty"`
	Threshold        map[string]any   `json:"threshold,omitempty"`
}

type CurrentValue struct {
	Number float64 `json:"number"`
	Units  string  `json:"units"`
}

type Alert struct {
	ID                     string        `json:"id"`
	GroupID                string        `json:"groupId"`
	OrgID                  string        `json:"orgId"`
	AlertConfigID          string        `json:"alertConfigId"`
	Created                time.Time     `json:"created"`
	Updated                time.Time     `json:"updated"`
	LastNotified           *time.Time    `json:"lastNotified,omitempty"`
	Resolved               *time.Time    `json:"resolved,omitempty"`
	EventTypeName          string        `json:"eventTypeName"`
	Status                 string        `json:"status"`
	AcknowledgedUntil      *time.Time    `json:"acknowledgedUntil,omitempty"`
	AcknowledgementComment string        `json:"acknowledgementComment,omitempty"`
	AcknowledgingUsername  string        `json:"acknowledgingUsername,omitempty"`
	ClusterName            string        `json:"clusterName,omitempty"`
	HostnameAndPort        string        `json:"hostnameAndPort,omitempty"`
	ReplicaSetName         string        `json:"replicaSetName,omitempty"`
	MetricName             string        `json:"metricName,omitempty"`
	CurrentValue           *CurrentValue `json:"currentValue,omitempty"`
}

var matcherFieldNames = []string{
	"APPLICATION_ID", "CLUSTER_NAME", "TYPE_NAME", "HOSTNAME", "PORT", "HOSTNAME_AND_PORT",
	"REPLICA_SET_NAME", "ATLAS_NODE_TYPE", "SHARD_NAME", "INSTANCE_NAME", "PROCESSOR_NAME", "RULE_ID", "SOFTWARE_TYPE",
}

var (
	matcherOperators  = []string{"EQUALS", "CONTAINS", "STARTS_WITH", "ENDS_WITH", "NOT_EQUALS", "NOT_CONTAINS", "REGEX"}
	notificationTypes = []string{"DATADOG", "EMAIL", "GROUP", "HIP_CHAT", "MICROSOFT_TEAMS", "OPS_GENIE", "ORG", "PAGER_DUTY", "SLACK", "SMS", "TEAM", "USER", "VICTOR_OPS", "WEBHOOK"}
	severities        = []string{"INFO", "WARNING", "ERROR", "CRITICAL"}
	eventTypePattern  = regexp.MustCompile(`^[A-Z][A-Z0-9_]{1,99}$`)
)

func init() {
	handle("listAlertConfigurationMatchersFieldNames", func(c *call) (any, error) { return listOf(matcherFieldNames, func(s string) any { return s }), nil })
	handle("listAlertConfigurations", caughtUp(listAlertConfigurations))
	handle("createAlertConfiguration", caughtUp(createAlertConfiguration))
	handle("getAlertConfiguration", caughtUp(func(c *call) (any, error) {
		ac, err := c.alertConfig("alertConfigId")
		if err != nil {
			return nil, err
		}
		return alertConfigView(ac), nil
	}))
	handle("deleteAlertConfiguration", caughtUp(deleteAlertConfiguration))
	handle("toggleAlertConfiguration", caughtUp(toggleAlertConfiguration))
	handle("updateAlertConfiguration", caughtUp(updateAlertConfiguration))
	handle("listAlertConfigurationsByAlertId", caughtUp(func(c *call) (any, error) {
		a, err := c.alert()
		if err != nil {
			return nil, err
		}
		if ac := find(c.w.AlertConfigs, func(x *AlertConfig) bool { return x.ID == a.AlertConfigID }); ac != nil {
			return list{alertConfigView(ac)}, nil
		}
		return list{}, nil
	}))
	handle("listAlertsByAlertConfigurationId", caughtUp(func(c *call) (any, error) {
		ac, err := c.alertConfig("alertConfigId")
		if err != nil {
			return nil, err
		}
		var out list
		for _, a := range c.w.Alerts {
			if a.AlertConfigID == ac.ID && a.Status == "OPEN" {
				out = append(out, a)
			}
		}
		return out, nil
	}))
	handle("listAlerts", caughtUp(listAlerts))
	handle("legacyListAlerts", caughtUp(listAlerts))
	handle("getAlert", caughtUp(getAlert))
	handle("legacyGetAlert", caughtUp(getAlert))
	handle("acknowledgeAlert", caughtUp(acknowledgeAlert))
	handle("legacyAcknowledgeAlert", caughtUp(acknowledgeAlert))
}

// caughtUp runs the incident engine up to the call's time before the
// handler reads or changes alerts.
func caughtUp(h opHandler) opHandler {
	return func(c *call) (any, error) {
		c.catchUp()
		return h(c)
	}
}

func (c *call) alertConfig(param string) (*AlertConfig, error) {
	id := c.param(param)
	ac := find(c.w.AlertConfigs, func(x *AlertConfig) bool { return x.ID == id && x.GroupID == c.project.ID })
	if ac == nil {
		return nil, errNotFound("ALERT_CONFIG_NOT_FOUND", "No alert configuration with ID %s exists in group %s.", id, c.project.ID)
	}
	return ac, nil
}

func (c *call) alert() (*Alert, error) {
	id := c.param("alertId")
	a := find(c.w.Alerts, func(x *Alert) bool { return x.ID == id && x.GroupID == c.project.ID })
	if a == nil {
		return nil, errNotFound("ALERT_NOT_FOUND", "No alert with ID %s exists in group %s.", id, c.project.ID)
	}
	return a, nil
}

// alertConfigView masks notification secrets as the real service does: all
// but the last four characters become asterisks.
func alertConfigView(ac *AlertConfig) any {
	out := *ac
	if out.Matchers == nil {
		out.Matchers = []Matcher{}
	}
	out.Notifications = make([]map[string]any, len(ac.Notifications))
	for i, n := range ac.Notifications {
		m := make(map[string]any, len(n))
		for k, v := range n {
			if s, ok := v.(string); ok && secretKey(k) {
				v = mask(s)
			}
			m[k] = v
		}
		out.Notifications[i] = m
	}
	return &out
}

func secretKey(k string) bool {
	k = strings.ToLower(k)
	return strings.Contains(k, "apikey") || strings.Contains(k, "servicekey") || strings.Contains(k, "apitoken") ||
		strings.Contains(k, "secret") || strings.Contains(k, "routingkey") || k == "webhookurl" || k == "microsoftteamswebhookurl"
}

func mask(s string) string {
	if len(s) <= 4 {
		return strings.Repeat("*", len(s))
	}
	return strings.Repeat("*", len(s)-4) + s[len(s)-4:]
}

func listAlertConfigurations(c *call) (any, error) {
	var out list
	for _, ac := range c.w.alertConfigsOf(c.project.ID) {
		out = append(out, alertConfigView(ac))
	}
	return out, nil
}

// alertConfigBody is GroupAlertsConfig as a client sends it; the read-only
// members are accepted (clients often send back what they read) and ignored.
type alertConfigBody struct {
	EventTypeName    string           `json:"eventTypeName"`
	Enabled          *bool            `json:"enabled"`
	Matchers         []Matcher        `json:"matchers"`
	Notifications    []map[string]any `json:"notifications"`
	SeverityOverride string           `json:"severityOverride"`
	MetricThreshold  map[string]any   `json:"metricThreshold"`
	Threshold        map[string]any   `json:"threshold"`
	ID               any              `json:"id"`
	GroupID          any              `json:"groupId"`
	Created          any              `json:"created"`
	Updated          any              `json:"updated"`
	Links            any              `json:"links"`
}

func (b *alertConfigBody) validate() *apiError {
	if b.EventTypeName == "" {
		return errMissing("eventTypeName")
	}
	if !eventTypePattern.MatchString(b.EventTypeName) {
		return errField("eventTypeName", "must be an event type name such as HOST_DOWN")
	}
	if len(b.Notifications) == 0 {
		return errMissing("notifications")
	}
	if len(b.Notifications) > 25 {
		return errField("notifications", "at most 25 notifications")
	}
	for i, n := range b.Notifications {
		tn, _ := n["typeName"].(string)
		if !slices.Contains(notificationTypes, tn) {
			return errField(fieldAt("notifications", i, "typeName"), "must be one of %s", strings.Join(notificationTypes, ", "))
		}
		for _, k := range []string{"delayMin", "intervalMin"} {
			if v, ok := n[k]; ok && v != nil {
				f, isNum := v.(float64)
				if !isNum || f != float64(int64(f)) || f < 0 || (k == "intervalMin" && f < 5) {
					lo := 0
					if k == "intervalMin" {
						lo = 5
					}
					return errField(fieldAt("notifications", i, k), "must be an integer of at least %d", lo)
				}
			}
		}
	}
	if len(b.Matchers) > 20 {
		return errField("matchers", "at most 20 matchers")
	}
	for i, m := range b.Matchers {
		switch {
		case !slices.Contains(matcherFieldNames, m.FieldName):
			return errField(fieldAt("matchers", i, "fieldName"), "must be one of the matcher field names")
		case !slices.Contains(matcherOperators, m.Operator):
			return errField(fieldAt("matchers", i, "operator"), "must be one of %s", strings.Join(matcherOperators, ", "))
		case m.Value == "":
			return errMissing(fieldAt("matchers", i, "value"))
		case m.Operator == "REGEX":
			if _, err := regexp.Compile(m.Value); err != nil {
				return errField(fieldAt("matchers", i, "value"), "is not a valid regular expression: %v", err)
			}
		}
	}
	if b.SeverityOverride != "" && !slices.Contains(severities, b.SeverityOverride) {
		return errField("severityOverride", "must be one of %s", strings.Join(severities, ", "))
	}
	return nil
}

func fieldAt(arr string, i int, field string) string {
	b, _ := json.Marshal(i)
	return arr + "[" + string(b) + "]." + field
}

func (b *alertConfigBody) apply(ac *AlertConfig, now time.Time) {
	ac.EventTypeName = b.EventTypeName
	if b.Enabled != nil {
		ac.Enabled = *b.Enabled
	}
	ac.Matchers = b.Matchers
	ac.Notifications = b.Notifications
	ac.SeverityOverride = b.SeverityOverride
	ac.MetricThreshold = b.MetricThreshold
	ac.Threshold = b.Threshold
	ac.Updated = now
}

// decodeAlertConfig reads and validates the body of a create or update.
func (c *call) decodeAlertConfig() (*alertConfigBody, *apiError) {
	var b alertConfigBody
	if e := c.decode(&b); e != nil {
		return nil, e
	}
	if e := b.validate(); e != nil {
		return nil, e
	}
	return &b, nil
}

func createAlertConfiguration(c *call) (any, error) {
	b, e := c.decodeAlertConfig()
	if e != nil {
		return nil, e
	}
	ac := &AlertConfig{ID: c.w.newID(), GroupID: c.project.ID, Created: c.now}
	b.apply(ac, c.now)
	c.w.AlertConfigs = append(c.w.AlertConfigs, ac)
	c.markChanged()
	return alertConfigView(ac), nil
}

func updateAlertConfiguration(c *call) (any, error) {
	ac, err := c.alertConfig("alertConfigId")
	if err != nil {
		return nil, err
	}
	b, e := c.decodeAlertConfig()
	if e != nil {
		return nil, e
	}
	b.apply(ac, c.now)
	c.markChanged()
	return alertConfigView(ac), nil
}

func toggleAlertConfiguration(c *call) (any, error) {
	ac, err := c.alertConfig("alertConfigId")
	if err != nil {
		return nil, err
	}
	enabled, e := c.decodeToggle()
	if e != nil {
		return nil, e
	}
	ac.Enabled = enabled
	ac.Updated = c.now
	c.markChanged()
	return alertConfigView(ac), nil
}

func deleteAlertConfiguration(c *call) (any, error) {
	ac, err := c.alertConfig("alertConfigId")
	if err != nil {
		return nil, err
	}
	remove(&c.w.AlertConfigs, func(x *AlertConfig) bool { return x == ac })
	// Its open alerts have nothing left to raise them: they are cancelled
	// (and their notifications stop with them).
	for _, a := range c.w.Alerts {
		if a.AlertConfigID == ac.ID && (a.Status == "OPEN" || a.Status == "TRACKING") {
			a.Status, a.Updated = "CANCELLED", c.now
		}
	}
	c.markChanged()
	return nil, nil
}

var alertStatuses = []string{"OPEN", "TRACKING", "CLOSED"}

func listAlerts(c *call) (any, error) {
	status := c.query.Get("status")
	if status != "" && !slices.Contains(alertStatuses, status) {
		return nil, errField("status", "must be one of OPEN, TRACKING, CLOSED")
	}
	// Oldest first, as created: the newest open alerts sit on the last page.
	// Only the page asked for is kept, as copies (an alert's pointers are
	// replaced when it changes, never written through): the page is encoded
	// after the world lock. The others are counted.
	var start, end int
	if c.paging != nil {
		start, end = c.paging.window(len(c.w.Alerts))
	}
	out := pageList{owned: true}
	for _, a := range c.w.projectAlerts(c.project.ID) {
		if status == "" || a.Status == status {
			if out.total >= start && out.total < end {
				out.items = append(out.items, *a)
			}
			out.total++
		}
	}
	return out, nil
}

func getAlert(c *call) (any, error) {
	a, err := c.alert()
	if err != nil {
		return nil, err
	}
	return a, nil
}

// ackBody is AcknowledgeAlert (2024-05-30). The older versions take the
// whole AlertView, of which only the acknowledgement members count and where
// leaving acknowledgedUntil out unacknowledges.
type ackBody struct {
	AcknowledgedUntil      *string `json:"acknowledgedUntil"`
	AcknowledgementComment *string `json:"acknowledgementComment"`
	UnacknowledgeAlert     *bool   `json:"unacknowledgeAlert"`
}

func acknowledgeAlert(c *call) (any, error) {
	a, err := c.alert()
	if err != nil {
		return nil, err
	}
	legacyShape := c.op.Legacy || c.version.Date < "2024-05-30"
	var b ackBody
	if legacyShape {
		var m map[string]json.RawMessage
		if e := decodeJSON(c.body, &m); e != nil {
			return nil, e
		}
		for k, dst := range map[string]**string{"acknowledgedUntil": &b.AcknowledgedUntil, "acknowledgementComment": &b.AcknowledgementComment} {
			if raw, ok := m[k]; ok && string(raw) != "null" {
				var s string
				if json.Unmarshal(raw, &s) != nil {
					return nil, errField(k, "must be a string")
				}
				*dst = &s
			}
		}
		unack := b.AcknowledgedUntil == nil
		b.UnacknowledgeAlert = &unack
	} else if e := c.decode(&b); e != nil {
		return nil, e
	}
	if e := limitError("", ifSet(b.AcknowledgementComment, limits.AckComment)); e != nil {
		return nil, e
	}
	if b.UnacknowledgeAlert != nil && *b.UnacknowledgeAlert {
		a.AcknowledgedUntil, a.AcknowledgementComment, a.AcknowledgingUsername = nil, "", ""
		if b.AcknowledgementComment != nil {
			// The comment of an unacknowledgement says why; it is kept.
			a.AcknowledgementComment = *b.AcknowledgementComment
		}
		a.Updated = c.now
		c.w.resumeNotifications(a, c.now)
		c.markChanged()
		return a, nil
	}
	if b.AcknowledgedUntil == nil {
		return nil, errMissing("acknowledgedUntil")
	}
	until, perr := time.Parse(time.RFC3339, *b.AcknowledgedUntil)
	if perr != nil {
		return nil, errField("acknowledgedUntil", "must be an ISO 8601 date-time such as 2030-01-02T15:04:05Z")
	}
	if !until.After(c.now) {
		return nil, errField("acknowledgedUntil", "must be in the future")
	}
	if a.Status == "CLOSED" {
		return nil, newError(http.StatusBadRequest, "CANNOT_ACKNOWLEDGE_CLOSED_ALERT", "Alert %s is closed and cannot be acknowledged.", a.ID)
	}
	until = until.UTC()
	a.AcknowledgedUntil = &until
	if b.AcknowledgementComment != nil {
		a.AcknowledgementComment = *b.AcknowledgementComment
	}
	a.AcknowledgingUsername = c.id.username()
	a.Updated = c.now
	c.markChanged()
	return a, nil
}
