package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// AlertStatus is an alert's state. The list filter accepts only OPEN,
// TRACKING and CLOSED; CANCELLED appears in answers.
type AlertStatus string

const (
	AlertOpen      AlertStatus = "OPEN"
	AlertTracking  AlertStatus = "TRACKING"
	AlertClosed    AlertStatus = "CLOSED"
	AlertCancelled AlertStatus = "CANCELLED"
)

// Severity is an alert configuration's severityOverride.
type Severity string

const (
	SeverityInfo     Severity = "INFO"
	SeverityWarning  Severity = "WARNING"
	SeverityError    Severity = "ERROR"
	SeverityCritical Severity = "CRITICAL"
)

// MaxAckCommentRunes is the acknowledgement comment limit, in characters.
const MaxAckCommentRunes = limits.MaxAckComment

// Alert is AlertViewForNdsGroup: the members all variants share plus the
// variant members the dashboard shows (cluster, host, replica set, metric).
type Alert struct {
	ID                     string        `json:"id"`
	AlertConfigID          string        `json:"alertConfigId"`
	GroupID                string        `json:"groupId,omitempty"`
	OrgID                  string        `json:"orgId,omitempty"`
	Created                time.Time     `json:"created"`
	Updated                time.Time     `json:"updated"`
	Status                 AlertStatus   `json:"status"`
	EventTypeName          string        `json:"eventTypeName"`
	AcknowledgedUntil      *time.Time    `json:"acknowledgedUntil,omitempty"`
	AcknowledgementComment string        `json:"acknowledgementComment,omitempty"`
	AcknowledgingUsername  string        `json:"acknowledgingUsername,omitempty"`
	LastNotified           *time.Time    `json:"lastNotified,omitempty"`
	Resolved               *time.Time    `json:"resolved,omitempty"`
	ClusterName            string        `json:"clusterName,omitempty"`
	HostnameAndPort        string        `json:"hostnameAndPort,omitempty"`
	ReplicaSetName         string        `json:"replicaSetName,omitempty"`
	MetricName             string        `json:"metricName,omitempty"`
	CurrentValue           *CurrentValue `json:"currentValue,omitempty"`
	Links                  []Link        `json:"links,omitempty"`
}

// CurrentValue is a metric alert's reading.
type CurrentValue struct {
	Number float64 `json:"number"`
	Units  string  `json:"units"`
}

// Acknowledged reports whether the alert is acknowledged at now.
func (a Alert) Acknowledged(now time.Time) bool {
	return a.AcknowledgedUntil != nil && a.AcknowledgedUntil.After(now)
}

// AlertListOptions filter listAlerts. An empty Status lists every alert.
type AlertListOptions struct {
	Status AlertStatus
	ListOptions
}

// AcknowledgeRequest is the 2024-05-30 AcknowledgeAlert body.
// UnacknowledgeAlert, when true, overrides AcknowledgedUntil.
type AcknowledgeRequest struct {
	AcknowledgedUntil      *time.Time `json:"acknowledgedUntil,omitempty"`
	AcknowledgementComment string     `json:"acknowledgementComment,omitempty"`
	UnacknowledgeAlert     bool       `json:"unacknowledgeAlert,omitempty"`
}

// AckForever is the acknowledgedUntil that means "forever": 100 years ahead.
func AckForever(now time.Time) *time.Time {
	t := now.UTC().AddDate(100, 0, 0).Truncate(time.Second)
	return &t
}

// Validate checks the request locally.
func (r AcknowledgeRequest) Validate() error {
	return limits.AckComment(r.AcknowledgementComment)
}

// AlertsService lists, reads and acknowledges alerts.
type AlertsService struct{ c *Client }

// Alerts is the alerts service.
func (c *Client) Alerts() AlertsService { return AlertsService{c} }

// List fetches one page of a project's alerts.
func (s AlertsService) List(ctx context.Context, groupID string, o AlertListOptions) (*Page[Alert], error) {
	r, err := alertListRequest(groupID, o.Status)
	if err != nil {
		return nil, err
	}
	return getPage[Alert](ctx, s.c, "listAlerts", r, o.ListOptions)
}

// ListAll fetches every alert of a project with the status (empty: all).
func (s AlertsService) ListAll(ctx context.Context, groupID string, status AlertStatus) ([]Alert, error) {
	r, err := alertListRequest(groupID, status)
	if err != nil {
		return nil, err
	}
	return getAll[Alert](ctx, s.c, "listAlerts", r)
}

func alertListRequest(groupID string, status AlertStatus) (Request, error) {
	switch status {
	case "", AlertOpen, AlertTracking, AlertClosed:
	default:
		return Request{}, fmt.Errorf("list alerts: %w", invalidField("status", "must be OPEN, TRACKING or CLOSED, got %q", status))
	}
	return Request{Params: groupParams(groupID), Query: queryOf("status", string(status))}, nil
}

func alertParams(groupID, alertID string) map[string]string {
	return groupParams(groupID, "alertId", alertID)
}

// Get fetches one alert.
func (s AlertsService) Get(ctx context.Context, groupID, alertID string) (*Alert, error) {
	return getJSON[Alert](ctx, s.c, "getAlert", Request{Params: alertParams(groupID, alertID)})
}

// Acknowledge acknowledges (or, with UnacknowledgeAlert, unacknowledges) an
// alert. An invalid request is refused locally and nothing is sent.
func (s AlertsService) Acknowledge(ctx context.Context, groupID, alertID string, req AcknowledgeRequest) (*Alert, error) {
	return sendChecked[Alert](ctx, s.c, "acknowledge alert", req.Validate(), "acknowledgeAlert", Request{Params: alertParams(groupID, alertID), Body: req})
}

// Unacknowledge ends an alert's acknowledgement; the comment (optional)
// says why.
func (s AlertsService) Unacknowledge(ctx context.Context, groupID, alertID, comment string) (*Alert, error) {
	return s.Acknowledge(ctx, groupID, alertID, AcknowledgeRequest{UnacknowledgeAlert: true, AcknowledgementComment: comment})
}

// LegacyList fetches one page of alerts from the v1.0 routes.
func (s AlertsService) LegacyList(ctx context.Context, groupID string, o AlertListOptions) (*Page[Alert], error) {
	r, err := alertListRequest(groupID, o.Status)
	if err != nil {
		return nil, err
	}
	return getPage[Alert](ctx, s.c, "legacyListAlerts", r, o.ListOptions)
}

// LegacyGet fetches one alert from the v1.0 routes.
func (s AlertsService) LegacyGet(ctx context.Context, groupID, alertID string) (*Alert, error) {
	return getJSON[Alert](ctx, s.c, "legacyGetAlert", Request{Params: alertParams(groupID, alertID)})
}

// legacyAckBody is the writable part of the v1.0 AlertView: no
// acknowledgedUntil unacknowledges.
type legacyAckBody struct {
	AcknowledgedUntil      *time.Time `json:"acknowledgedUntil,omitempty"`
	AcknowledgementComment string     `json:"acknowledgementComment,omitempty"`
}

// LegacyAcknowledge acknowledges through v1.0; a nil until unacknowledges.
func (s AlertsService) LegacyAcknowledge(ctx context.Context, groupID, alertID string, until *time.Time, comment string) (*Alert, error) {
	body := legacyAckBody{AcknowledgedUntil: until, AcknowledgementComment: comment}
	return sendChecked[Alert](ctx, s.c, "acknowledge alert", limits.AckComment(comment), "legacyAcknowledgeAlert", Request{Params: alertParams(groupID, alertID), Body: body})
}

// MatcherOperator compares a matcher's field with its value.
type MatcherOperator string

const (
	MatchEquals      MatcherOperator = "EQUALS"
	MatchContains    MatcherOperator = "CONTAINS"
	MatchStartsWith  MatcherOperator = "STARTS_WITH"
	MatchEndsWith    MatcherOperator = "ENDS_WITH"
	MatchNotEquals   MatcherOperator = "NOT_EQUALS"
	MatchNotContains MatcherOperator = "NOT_CONTAINS"
	MatchRegex       MatcherOperator = "REGEX"
)

// Matcher narrows which resources an alert configuration watches.
type Matcher struct {
	FieldName string          `json:"fieldName"`
	Operator  MatcherOperator `json:"operator"`
	Value     string          `json:"value"`
}

// MetricThreshold is the trigger of a metric alert configuration.
type MetricThreshold struct {
	MetricName string   `json:"metricName"`
	Mode       string   `json:"mode,omitempty"`     // AVERAGE
	Operator   string   `json:"operator,omitempty"` // LESS_THAN, GREATER_THAN
	Threshold  *float64 `json:"threshold,omitempty"`
	Units      string   `json:"units,omitempty"`
}

// Threshold is the trigger of a threshold alert configuration.
type Threshold struct {
	Operator  string   `json:"operator,omitempty"`
	Threshold *float64 `json:"threshold,omitempty"`
	Units     string   `json:"units,omitempty"`
}

// AlertConfig is GroupAlertsConfig: the members its 18 variants share plus
// the triggers. Members of variants this type does not name are kept in
// Extra, so a read-modify-write keeps them.
type AlertConfig struct {
	ID               string           `json:"id,omitempty"`
	GroupID          string           `json:"groupId,omitempty"`
	Created          *time.Time       `json:"created,omitempty"`
	Updated          *time.Time       `json:"updated,omitempty"`
	Enabled          bool             `json:"enabled"`
	EventTypeName    string           `json:"eventTypeName"`
	Matchers         []Matcher        `json:"matchers,omitempty"`
	Notifications    []Notification   `json:"notifications"`
	SeverityOverride Severity         `json:"severityOverride,omitempty"`
	MetricThreshold  *MetricThreshold `json:"metricThreshold,omitempty"`
	Threshold        *Threshold       `json:"threshold,omitempty"`
	Links            []Link           `json:"links,omitempty"`

	Extra map[string]json.RawMessage `json:"-"`
}

type alertConfigFields AlertConfig

// UnmarshalJSON keeps unknown members in Extra.
func (a *AlertConfig) UnmarshalJSON(data []byte) error {
	var f alertConfigFields
	extra, err := decodeKeepingExtra(data, &f)
	if err != nil {
		return err
	}
	*a = AlertConfig(f)
	a.Extra = extra
	return nil
}

// MarshalJSON writes the known members and then the kept unknown ones.
func (a AlertConfig) MarshalJSON() ([]byte, error) {
	return encodeWithExtra(alertConfigFields(a), a.Extra)
}

// Validate checks what create and update require.
func (a AlertConfig) Validate() error {
	if strings.TrimSpace(a.EventTypeName) == "" {
		return invalidField("eventTypeName", "required")
	}
	if len(a.Notifications) == 0 {
		return invalidField("notifications", "at least one notification is required")
	}
	for i, n := range a.Notifications {
		if n.TypeName == "" {
			return invalidField(fmt.Sprintf("notifications[%d].typeName", i), "required")
		}
	}
	switch a.SeverityOverride {
	case "", SeverityInfo, SeverityWarning, SeverityError, SeverityCritical:
	default:
		return invalidField("severityOverride", "must be INFO, WARNING, ERROR or CRITICAL, got %q", a.SeverityOverride)
	}
	return nil
}

// Masked returns a copy whose notification secrets are masked for display.
func (a AlertConfig) Masked() AlertConfig {
	out := a
	out.Notifications = make([]Notification, len(a.Notifications))
	for i, n := range a.Notifications {
		out.Notifications[i] = n.Masked()
	}
	return out
}

// writable drops the read-only members before a create or update.
func (a AlertConfig) writable() AlertConfig {
	a.ID, a.GroupID, a.Created, a.Updated, a.Links = "", "", nil, nil, nil
	return a
}

// SameWrite reports whether an update with a sends what b holds: their
// writable fields are the same JSON (an unchanged configuration, which
// need not be sent).
func (a AlertConfig) SameWrite(b AlertConfig) bool {
	x, errA := json.Marshal(a.writable())
	y, errB := json.Marshal(b.writable())
	return errA == nil && errB == nil && bytes.Equal(x, y)
}

// NotificationType is a notification's typeName.
type NotificationType string

const (
	NotifyDatadog        NotificationType = "DATADOG"
	NotifyEmail          NotificationType = "EMAIL"
	NotifyGroup          NotificationType = "GROUP"
	NotifyHipChat        NotificationType = "HIP_CHAT"
	NotifyMicrosoftTeams NotificationType = "MICROSOFT_TEAMS"
	NotifyOpsGenie       NotificationType = "OPS_GENIE"
	NotifyOrg            NotificationType = "ORG"
	NotifyPagerDuty      NotificationType = "PAGER_DUTY"
	NotifySlack          NotificationType = "SLACK"
	NotifySMS            NotificationType = "SMS"
	NotifyTeam           NotificationType = "TEAM"
	NotifyUser           NotificationType = "USER"
	NotifyVictorOps      NotificationType = "VICTOR_OPS"
	NotifyWebhook        NotificationType = "WEBHOOK"
)

// Notification is one member of an alert configuration's notifications: a
// union over typeName. The members of the known kinds are fields; members of
// kinds this type does not know are kept in Extra and written back as they came.
type Notification struct {
	TypeName      NotificationType `json:"typeName"`
	DelayMin      *int             `json:"delayMin,omitempty"` // 0 is meaningful: notify at once
	IntervalMin   int              `json:"intervalMin,omitempty"`
	NotifierID    string           `json:"notifierId,omitempty"`
	IntegrationID string           `json:"integrationId,omitempty"`

	// EMAIL, USER, TEAM, GROUP, ORG
	EmailAddress string   `json:"emailAddress,omitempty"`
	EmailEnabled *bool    `json:"emailEnabled,omitempty"`
	SMSEnabled   *bool    `json:"smsEnabled,omitempty"`
	Roles        []string `json:"roles,omitempty"`
	Username     string   `json:"username,omitempty"`
	TeamID       string   `json:"teamId,omitempty"`
	TeamName     string   `json:"teamName,omitempty"`
	MobileNumber string   `json:"mobileNumber,omitempty"`

	// SLACK, HIP_CHAT, MICROSOFT_TEAMS
	ChannelName              string `json:"channelName,omitempty"`
	APIToken                 string `json:"apiToken,omitempty"`
	NotificationToken        string `json:"notificationToken,omitempty"`
	RoomName                 string `json:"roomName,omitempty"`
	MicrosoftTeamsWebhookURL string `json:"microsoftTeamsWebhookUrl,omitempty"`

	// DATADOG, OPS_GENIE, PAGER_DUTY, VICTOR_OPS
	DatadogAPIKey       string `json:"datadogApiKey,omitempty"`
	DatadogRegion       string `json:"datadogRegion,omitempty"`
	OpsGenieAPIKey      string `json:"opsGenieApiKey,omitempty"`
	OpsGenieRegion      string `json:"opsGenieRegion,omitempty"`
	ServiceKey          string `json:"serviceKey,omitempty"`
	Region              string `json:"region,omitempty"`
	VictorOpsAPIKey     string `json:"victorOpsApiKey,omitempty"`
	VictorOpsRoutingKey string `json:"victorOpsRoutingKey,omitempty"`

	// WEBHOOK
	WebhookURL    string `json:"webhookUrl,omitempty"`
	WebhookSecret string `json:"webhookSecret,omitempty"`

	Extra map[string]json.RawMessage `json:"-"`
}

type notificationFields Notification

// UnmarshalJSON keeps unknown members in Extra.
func (n *Notification) UnmarshalJSON(data []byte) error {
	var f notificationFields
	extra, err := decodeKeepingExtra(data, &f)
	if err != nil {
		return err
	}
	*n = Notification(f)
	n.Extra = extra
	return nil
}

// MarshalJSON writes the known members and then the kept unknown ones.
func (n Notification) MarshalJSON() ([]byte, error) {
	return encodeWithExtra(notificationFields(n), n.Extra)
}

// Masked returns a copy with every secret member masked (all but the last
// four characters replaced by '*'), including unknown string members whose
// name says key, token, secret or password.
func (n Notification) Masked() Notification {
	out := n
	for _, p := range []*string{
		&out.APIToken, &out.NotificationToken, &out.MicrosoftTeamsWebhookURL,
		&out.DatadogAPIKey, &out.OpsGenieAPIKey, &out.ServiceKey,
		&out.VictorOpsAPIKey, &out.VictorOpsRoutingKey, &out.WebhookURL, &out.WebhookSecret,
	} {
		*p = MaskSecret(*p)
	}
	if n.Extra != nil {
		out.Extra = make(map[string]json.RawMessage, len(n.Extra))
		for k, v := range n.Extra {
			var s string
			if secretName(k) && json.Unmarshal(v, &s) == nil {
				v, _ = json.Marshal(MaskSecret(s))
			}
			out.Extra[k] = v
		}
	}
	return out
}

// Target names where the notification goes, for display: the address,
// channel, user, team, roles or (masked) key of its kind.
func (n Notification) Target() string {
	m := n.Masked()
	for _, kv := range [][2]string{
		{"email", m.EmailAddress}, {"sms", m.MobileNumber}, {"user", m.Username}, {"team", firstNonEmpty(m.TeamName, m.TeamID)},
		{"channel", m.ChannelName}, {"room", m.RoomName}, {"webhook", m.WebhookURL}, {"teams webhook", m.MicrosoftTeamsWebhookURL},
		{"service key", m.ServiceKey}, {"api key", firstNonEmpty(m.DatadogAPIKey, m.OpsGenieAPIKey, m.VictorOpsAPIKey)},
		{"integration", m.IntegrationID}, {"notifier", m.NotifierID},
	} {
		if kv[1] != "" {
			return kv[0] + " " + kv[1]
		}
	}
	if len(m.Roles) > 0 {
		return "roles " + strings.Join(m.Roles, ", ")
	}
	return ""
}

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

func secretName(k string) bool {
	k = strings.ToLower(k)
	for _, w := range []string{"key", "token", "secret", "password", "url"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

// MaskSecret replaces all but the last four characters with '*'. Values of
// four characters or fewer are masked entirely; "" stays "".
func MaskSecret(s string) string {
	r := []rune(s)
	if len(r) <= 4 {
		return strings.Repeat("*", len(r))
	}
	return strings.Repeat("*", len(r)-4) + string(r[len(r)-4:])
}

// AlertsToggle is the toggle body.
type AlertsToggle struct {
	Enabled bool `json:"enabled"`
}

// AlertConfigsService manages alert configurations.
type AlertConfigsService struct{ c *Client }

// AlertConfigs is the alert configurations service.
func (c *Client) AlertConfigs() AlertConfigsService { return AlertConfigsService{c} }

// List fetches one page of a project's alert configurations.
func (s AlertConfigsService) List(ctx context.Context, groupID string, o ListOptions) (*Page[AlertConfig], error) {
	return getPage[AlertConfig](ctx, s.c, "listAlertConfigurations", Request{Params: groupParams(groupID)}, o)
}

// ListAll fetches every alert configuration of a project.
func (s AlertConfigsService) ListAll(ctx context.Context, groupID string) ([]AlertConfig, error) {
	return getAll[AlertConfig](ctx, s.c, "listAlertConfigurations", Request{Params: groupParams(groupID)})
}

func alertConfigParams(groupID, configID string) map[string]string {
	return groupParams(groupID, "alertConfigId", configID)
}

// Get fetches one alert configuration.
func (s AlertConfigsService) Get(ctx context.Context, groupID, configID string) (*AlertConfig, error) {
	return getJSON[AlertConfig](ctx, s.c, "getAlertConfiguration", Request{Params: alertConfigParams(groupID, configID)})
}

// Create creates an alert configuration; read-only members are not sent.
func (s AlertConfigsService) Create(ctx context.Context, groupID string, cfg AlertConfig) (*AlertConfig, error) {
	return sendChecked[AlertConfig](ctx, s.c, "create alert configuration", cfg.Validate(), "createAlertConfiguration", Request{Params: groupParams(groupID), Body: cfg.writable()})
}

// Update replaces an alert configuration; enabled is sent as given.
func (s AlertConfigsService) Update(ctx context.Context, groupID, configID string, cfg AlertConfig) (*AlertConfig, error) {
	return sendChecked[AlertConfig](ctx, s.c, "update alert configuration", cfg.Validate(), "updateAlertConfiguration", Request{Params: alertConfigParams(groupID, configID), Body: cfg.writable()})
}

// Toggle enables or disables an alert configuration.
func (s AlertConfigsService) Toggle(ctx context.Context, groupID, configID string, enabled bool) (*AlertConfig, error) {
	return getJSON[AlertConfig](ctx, s.c, "toggleAlertConfiguration", Request{Params: alertConfigParams(groupID, configID), Body: AlertsToggle{Enabled: enabled}})
}

// Delete removes an alert configuration.
func (s AlertConfigsService) Delete(ctx context.Context, groupID, configID string) error {
	return callNoBody(ctx, s.c, "deleteAlertConfiguration", Request{Params: alertConfigParams(groupID, configID)})
}

// ListByAlert fetches the configurations that raised an alert.
func (s AlertConfigsService) ListByAlert(ctx context.Context, groupID, alertID string, o ListOptions) (*Page[AlertConfig], error) {
	return getPage[AlertConfig](ctx, s.c, "listAlertConfigurationsByAlertId", Request{Params: alertParams(groupID, alertID)}, o)
}

// ListAllByAlert fetches every configuration that raised an alert.
func (s AlertConfigsService) ListAllByAlert(ctx context.Context, groupID, alertID string) ([]AlertConfig, error) {
	return getAll[AlertConfig](ctx, s.c, "listAlertConfigurationsByAlertId", Request{Params: alertParams(groupID, alertID)})
}

// MatcherFieldNames lists the field names matchers may use.
func (s AlertConfigsService) MatcherFieldNames(ctx context.Context) ([]string, error) {
	return getList[string](ctx, s.c, "listAlertConfigurationMatchersFieldNames", Request{})
}

// AlertsByConfig fetches one page of the open alerts a configuration raised.
func (s AlertConfigsService) AlertsByConfig(ctx context.Context, groupID, configID string, o ListOptions) (*Page[Alert], error) {
	return getPage[Alert](ctx, s.c, "listAlertsByAlertConfigurationId", Request{Params: alertConfigParams(groupID, configID)}, o)
}

// decodeKeepingExtra decodes data into fields (a pointer to a struct) and
// returns the members no json tag of the struct names.
func decodeKeepingExtra(data []byte, fields any) (map[string]json.RawMessage, error) {
	if err := json.Unmarshal(data, fields); err != nil {
		return nil, err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	known := jsonNames(reflect.TypeOf(fields).Elem())
	var extra map[string]json.RawMessage
	for k, v := range raw {
		if !known[k] {
			if extra == nil {
				extra = map[string]json.RawMessage{}
			}
			extra[k] = v
		}
	}
	return extra, nil
}

// encodeWithExtra encodes fields and adds the extra members it lacks.
func encodeWithExtra(fields any, extra map[string]json.RawMessage) ([]byte, error) {
	data, err := json.Marshal(fields)
	if err != nil || len(extra) == 0 {
		return data, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	for k, v := range extra {
		if _, set := m[k]; !set {
			m[k] = v
		}
	}
	return json.Marshal(m)
}

var jsonNamesCache sync.Map // reflect.Type -> map[string]bool

// jsonNames lists the member names a struct's json tags claim.
func jsonNames(t reflect.Type) map[string]bool {
	if v, ok := jsonNamesCache.Load(t); ok {
		return v.(map[string]bool)
	}
	names := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case name != "":
			names[name] = true
		case f.IsExported():
			names[f.Name] = true
		}
	}
	jsonNamesCache.Store(t, names)
	return names
}
