package apisim

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"
)

// notifySchedule is when one target of one alert is next notified.
type notifySchedule struct {
	AlertID       string    `json:"alertId"`
	AlertConfigID string    `json:"alertConfigId"`
	Index         int       `json:"index"` // in the configuration's notifications
	Next          time.Time `json:"next"`
	Sent          int       `json:"sent"`
}

// NotificationRecord is one notification sent (or withheld) to a target.
type NotificationRecord struct {
	Time          time.Time `json:"time"`
	AlertID       string    `json:"alertId"`
	AlertConfigID string    `json:"alertConfigId"`
	GroupID       string    `json:"groupId"`
	EventTypeName string    `json:"eventTypeName"`
	Index         int       `json:"index"`
	TypeName      string    `json:"typeName"`
	Target        string    `json:"target"` // masked like the API masks secrets
	// Kind is "open" (the first), "repeat" (every intervalMin) or
	// "resolved".
	Kind string `json:"kind"`
	// Delivery says what happened: "recorded" for targets the simulator
	// cannot reach, or the webhook's outcome.
	Delivery string `json:"delivery"`
}

// webhookDelivery is a POST to make once the world lock is released.
type webhookDelivery struct {
	record *NotificationRecord
	url    string
	secret string
	body   []byte
}

// minutes reads delayMin or intervalMin as decoded from JSON.
func minutes(v any) time.Duration {
	f, _ := v.(float64)
	if f < 0 {
		f = 0
	}
	return time.Duration(f * float64(time.Minute))
}

// notifyDue sends one due notification, or stops or postpones the
// schedule: a closed alert or a deleted configuration stops it, an
// acknowledged alert withholds successive notifications until the
// acknowledgement ends.
func (w *World) notifyDue(s *notifySchedule, now time.Time) []webhookDelivery {
	a := find(w.Alerts, func(x *Alert) bool { return x.ID == s.AlertID })
	ac := find(w.AlertConfigs, func(x *AlertConfig) bool { return x.ID == s.AlertConfigID })
	if a == nil || ac == nil || a.Status != "OPEN" || s.Index >= len(ac.Notifications) {
		w.dropSchedule(s)
		return nil
	}
	if a.AcknowledgedUntil != nil && a.AcknowledgedUntil.After(now) {
		s.Next = *a.AcknowledgedUntil
		return nil
	}
	n := ac.Notifications[s.Index]
	kind := "open"
	if s.Sent > 0 {
		kind = "repeat"
	}
	s.Sent++
	interval := minutes(n["intervalMin"])
	if interval < 5*time.Minute {
		interval = 5 * time.Minute // the service's smallest interval
	}
	s.Next = now.Add(interval)
	t := now
	a.LastNotified = &t
	if _, hook := w.record(a, ac, s.Index, kind, now); hook != nil {
		return []webhookDelivery{*hook}
	}
	return nil
}

func (w *World) dropSchedule(s *notifySchedule) {
	st := w.Incidents
	st.Schedules = slices.DeleteFunc(st.Schedules, func(x *notifySchedule) bool { return x == s })
}

// record logs a notification and prepares its webhook POST, if any.
func (w *World) record(a *Alert, ac *AlertConfig, index int, kind string, now time.Time) (*NotificationRecord, *webhookDelivery) {
	st := w.Incidents
	n := ac.Notifications[index]
	typeName, _ := n["typeName"].(string)
	rec := &NotificationRecord{
		Time: now, AlertID: a.ID, AlertConfigID: ac.ID, GroupID: a.GroupID, EventTypeName: a.EventTypeName,
		Index: index, TypeName: typeName, Target: notificationTarget(n), Kind: kind, Delivery: "recorded",
	}
	st.Notifications = append(st.Notifications, rec)
	if k := len(st.Notifications) - maxNotifications; k > 0 {
		st.Notifications = slices.Delete(st.Notifications, 0, k)
	}
	if typeName != "WEBHOOK" {
		return rec, nil
	}
	u, _ := n["webhookUrl"].(string)
	if !loopbackURL(u) {
		rec.Delivery = "not sent: the simulator posts webhooks to loopback addresses only"
		return rec, nil
	}
	secret, _ := n["webhookSecret"].(string)
	rec.Delivery = "posting"
	return rec, &webhookDelivery{record: rec, url: u, secret: secret, body: webhookBody(a, ac, kind, now)}
}

// notificationTarget names where a notification goes, with secrets masked.
func notificationTarget(n map[string]any) string {
	for _, k := range []string{"emailAddress", "mobileNumber", "username", "teamName", "channelName", "roomName", "webhookUrl",
		"microsoftTeamsWebhookUrl", "serviceKey", "datadogApiKey", "opsGenieApiKey", "victorOpsApiKey", "integrationId", "notifierId"} {
		if s, ok := n[k].(string); ok && s != "" {
			if secretKey(k) {
				s = mask(s)
			}
			return k + "=" + s
		}
	}
	if roles, ok := n["roles"].([]any); ok && len(roles) > 0 {
		parts := make([]string, 0, len(roles))
		for _, r := range roles {
			parts = append(parts, fmt.Sprint(r))
		}
		return "roles=" + strings.Join(parts, ",")
	}
	return ""
}

// loopbackURL reports whether u is an http(s) URL on a loopback host: the
// simulator never sends notifications off the machine.
func loopbackURL(u string) bool {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") {
		return false
	}
	host := p.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// resumeNotifications puts an unacknowledged alert's targets back on their
// interval: a schedule parked until the acknowledgement's end fires at the
// next interval from now instead.
func (w *World) resumeNotifications(a *Alert, now time.Time) {
	st := w.Incidents
	if st == nil {
		return
	}
	ac := find(w.AlertConfigs, func(x *AlertConfig) bool { return x.ID == a.AlertConfigID })
	for _, s := range st.Schedules {
		if s.AlertID != a.ID || ac == nil || s.Index >= len(ac.Notifications) {
			continue
		}
		next := now.Add(max(minutes(ac.Notifications[s.Index]["intervalMin"]), 5*time.Minute))
		if s.Sent == 0 {
			next = now
		}
		if s.Next.After(next) {
			s.Next = next
		}
	}
}
