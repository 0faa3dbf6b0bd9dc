package alerts

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// The configuration form (n, e): its fields and rules, and the
// configuration a submitted form describes.

// Notification kinds the create form offers, and what its target means.
var formKinds = []struct {
	kind apiclient.NotificationType
	hint string
}{
	{apiclient.NotifyEmail, "an email address"},
	{apiclient.NotifyGroup, "project roles, comma-separated (GROUP_OWNER, GROUP_READ_ONLY)"},
	{apiclient.NotifyUser, "a username"},
	{apiclient.NotifySMS, "a mobile number"},
	{apiclient.NotifyWebhook, "a webhook URL (secret: optional signing secret)"},
	{apiclient.NotifyPagerDuty, "a PagerDuty service key"},
	{apiclient.NotifyDatadog, "a Datadog API key"},
}

var eventNamePattern = regexp.MustCompile(`^[A-Z][A-Z0-9_]{1,99}$`)

var operators = []string{"EQUALS", "NOT_EQUALS", "CONTAINS", "NOT_CONTAINS", "STARTS_WITH", "ENDS_WITH", "REGEX"}

// parseMatchers reads "FIELD OPERATOR value; FIELD OPERATOR value".
func parseMatchers(s string) ([]apiclient.Matcher, error) {
	var out []apiclient.Matcher
	for i, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		f := strings.SplitN(part, " ", 3)
		if len(f) < 3 || strings.TrimSpace(f[2]) == "" {
			return nil, fmt.Errorf("matcher %d: want FIELD OPERATOR value, e.g. CLUSTER_NAME EQUALS payments-rs", i+1)
		}
		op := strings.ToUpper(f[1])
		if !slices.Contains(operators, op) {
			return nil, fmt.Errorf("matcher %d: operator %q: want one of %s", i+1, f[1], strings.Join(operators, ", "))
		}
		if op == "REGEX" {
			if _, err := regexp.Compile(f[2]); err != nil {
				return nil, fmt.Errorf("matcher %d: not a regular expression: %v", i+1, err)
			}
		}
		out = append(out, apiclient.Matcher{FieldName: strings.ToUpper(f[0]), Operator: apiclient.MatcherOperator(op), Value: strings.TrimSpace(f[2])})
	}
	return out, nil
}

func matchersText(ms []apiclient.Matcher) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = m.FieldName + " " + string(m.Operator) + " " + m.Value
	}
	return strings.Join(parts, "; ")
}

var severityChoices = []string{"none", "INFO", "WARNING", "ERROR", "CRITICAL"}

func intRule(lo int) func(string, components.FormValues) error {
	return func(v string, _ components.FormValues) error {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < lo {
			return fmt.Errorf("a whole number of minutes, at least %d", lo)
		}
		return nil
	}
}

// openConfigForm asks for a new configuration, or the editable parts of the
// selected one (its notifications are kept as they are).
func (p *Pane) openConfigForm(edit bool) tea.Cmd {
	var c apiclient.AlertConfig
	title, target := "New alert configuration", ""
	if why := p.createBusy(); !edit && why != "" {
		return p.refuse("new alert configuration: " + why)
	}
	if edit {
		var ok bool
		if c, ok = p.selectedConfig("edit"); !ok {
			return nil
		}
		if field := maskedSecret(c); field != "" {
			return p.refuse("edit: this configuration's " + field + " is a secret the API returns masked; edit it as JSON (E) and type it again")
		}
		title, target = "Edit "+components.Sanitize(c.EventTypeName)+" configuration", c.ID
	}
	sev := slices.Index(severityChoices, string(c.SeverityOverride))
	fields := []components.Field{
		{Key: "event", Label: "Event type", Kind: components.FieldText, Value: c.EventTypeName, Placeholder: "HOST_DOWN",
			Validate: func(v string, _ components.FormValues) error {
				if !eventNamePattern.MatchString(strings.TrimSpace(v)) {
					return errors.New("required: an event type name such as HOST_DOWN")
				}
				return nil
			}},
		{Key: "enabled", Label: "Enabled", Kind: components.FieldToggle, On: c.Enabled || !edit},
		{Key: "severity", Label: "Severity override", Kind: components.FieldChoice, Choices: severityChoices, Choice: max(sev, 0)},
		{Key: "matchers", Label: "Matchers", Kind: components.FieldText, Value: matchersText(c.Matchers),
			Hint: "FIELD OPERATOR value; … (empty: every resource)", Placeholder: "CLUSTER_NAME EQUALS payments-rs",
			Validate: func(v string, _ components.FormValues) error { _, err := parseMatchers(v); return err }},
	}
	if !edit {
		kinds := make([]string, len(formKinds))
		hints := make([]string, len(formKinds))
		for i, k := range formKinds {
			kinds[i], hints[i] = string(k.kind), string(k.kind)+": "+k.hint
		}
		fields = append(fields,
			components.Field{Key: "kind", Label: "Notify", Kind: components.FieldChoice, Choices: kinds},
			components.Field{Key: "target", Label: "Target", Kind: components.FieldText, Hint: strings.Join(hints[:3], " · "),
				Validate: func(v string, _ components.FormValues) error {
					if strings.TrimSpace(v) == "" {
						return errors.New("required: where the notification goes")
					}
					return nil
				}},
			components.Field{Key: "secret", Label: "Secret (webhook, optional)", Kind: components.FieldText, Secret: true},
			components.Field{Key: "delay", Label: "Delay (min)", Kind: components.FieldText, Value: "0", Validate: intRule(0)},
			components.Field{Key: "interval", Label: "Interval (min)", Kind: components.FieldText, Value: "60", Validate: intRule(5)},
		)
	} else {
		fields = append(fields, components.Field{Key: "note", Label: "Notifications", Kind: components.FieldChoice,
			Choices: []string{fmt.Sprintf("%d kept as they are (E edits them as JSON)", len(c.Notifications))}})
	}
	name := actNewConfig
	if edit {
		name = actEditConfig
	}
	p.Form(views.FormMsg{ID: formConfig, Title: title, Fields: fields,
		Action: views.ActionMsg{Name: name, Target: target}})
	return nil
}

// configFromForm builds the configuration the form describes.
func (p *Pane) configFromForm(msg views.ActionMsg) (apiclient.AlertConfig, error) {
	v := msg.Values
	var c apiclient.AlertConfig
	if msg.Target != "" {
		old, ok := p.configs[msg.Target]
		if !ok {
			return c, errors.New("the configuration is no longer in the list")
		}
		c = old
	}
	c.EventTypeName = strings.TrimSpace(v["event"])
	c.Enabled = v.Bool("enabled")
	c.SeverityOverride = ""
	if s := v["severity"]; s != "none" {
		c.SeverityOverride = apiclient.Severity(s)
	}
	ms, err := parseMatchers(v["matchers"])
	if err != nil {
		return c, err
	}
	c.Matchers = ms
	if msg.Target == "" {
		delay, _ := strconv.Atoi(strings.TrimSpace(v["delay"]))
		interval, _ := strconv.Atoi(strings.TrimSpace(v["interval"]))
		n := apiclient.Notification{TypeName: apiclient.NotificationType(v["kind"]), DelayMin: &delay, IntervalMin: interval}
		t := strings.TrimSpace(v["target"])
		switch n.TypeName {
		case apiclient.NotifyEmail:
			n.EmailAddress = t
		case apiclient.NotifyGroup:
			for _, r := range strings.Split(t, ",") {
				if r = strings.TrimSpace(r); r != "" {
					n.Roles = append(n.Roles, strings.ToUpper(r))
				}
			}
		case apiclient.NotifyUser:
			n.Username = t
		case apiclient.NotifySMS:
			n.MobileNumber = t
		case apiclient.NotifyWebhook:
			n.WebhookURL, n.WebhookSecret = t, v["secret"]
		case apiclient.NotifyPagerDuty:
			n.ServiceKey = t
		case apiclient.NotifyDatadog:
			n.DatadogAPIKey, n.DatadogRegion = t, "US"
		}
		c.Notifications = []apiclient.Notification{n}
	}
	// The same rules the client applies: eventTypeName and notifications.
	return c, c.Validate()
}

func (p *Pane) submitConfigForm(msg views.ActionMsg) tea.Cmd {
	c, err := p.configFromForm(msg)
	if err != nil {
		return p.formDone(formConfig, err)
	}
	return p.sendConfig("configForm", msg.Target, c)
}

// maskedSecret names a notification member that still holds a masked
// value: sending it back would replace the real secret with asterisks.
func maskedSecret(c apiclient.AlertConfig) string {
	for i, n := range c.Notifications {
		raw, _ := json.Marshal(n)
		masked, _ := json.Marshal(n.Masked())
		if string(raw) == string(masked) && strings.Contains(string(raw), "**") {
			return fmt.Sprintf("notifications[%d] (%s)", i, n.TypeName)
		}
	}
	return ""
}
