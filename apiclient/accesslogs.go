package apiclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/limits"
)

// AccessLogsService reads the database access history of a cluster or host.
// Tenant tiers (M0, M2, M5) and serverless instances have none.
type AccessLogsService struct{ c *Client }

// AccessLogs is the access history service.
func (c *Client) AccessLogs() AccessLogsService { return AccessLogsService{c} }

// MaxAccessLogs is the most entries one call returns (and the default).
const MaxAccessLogs = limits.MaxNLogs

// AccessLog is one authentication attempt (MongoDBAccessLogs).
type AccessLog struct {
	AuthResult    bool   `json:"authResult"`
	AuthSource    string `json:"authSource,omitempty"`
	FailureReason string `json:"failureReason,omitempty"` // null on success
	GroupID       string `json:"groupId,omitempty"`
	Hostname      string `json:"hostname"`
	IPAddress     string `json:"ipAddress"`
	LogLine       string `json:"logLine,omitempty"`
	Timestamp     string `json:"timestamp"`
	Username      string `json:"username"`
}

// timestampLayouts are the forms the service writes timestamps in: ISO
// 8601, the JavaScript Date form (whose trailing "(zone name)" is cut before
// parsing: it may be "(UTC)" or "(Coordinated Universal Time)") and the Java
// Date form.
var timestampLayouts = []string{
	time.RFC3339Nano,
	"Mon Jan 2 2006 15:04:05 GMT-0700",
	"Mon Jan 2 15:04:05 MST 2006",
}

// Time parses Timestamp; ok is false when its form is unknown.
func (l AccessLog) Time() (t time.Time, ok bool) {
	ts := strings.TrimSpace(l.Timestamp)
	if i := strings.Index(ts, " ("); i > 0 && strings.HasSuffix(ts, ")") {
		ts = ts[:i]
	}
	for _, layout := range timestampLayouts {
		if t, err := time.Parse(layout, ts); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

type accessLogList struct {
	AccessLogs []AccessLog `json:"accessLogs"`
}

// UnmarshalJSON holds at most MaxRows records of one answer, reading past
// the rest.
func (l *accessLogList) UnmarshalJSON(b []byte) error {
	raw := struct {
		AccessLogs listBody[AccessLog] `json:"accessLogs"`
	}{listBody[AccessLog]{max: MaxRows}}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	l.AccessLogs = raw.AccessLogs.Items
	return nil
}

// AccessLogsOptions filter the history. Start and End go together; both are
// sent as epoch milliseconds. AuthResult true keeps successes only, false
// failures only, nil both. NLogs nil means the server's default (20000).
type AccessLogsOptions struct {
	AuthResult *bool
	Start, End *time.Time
	IPAddress  string
	NLogs      *int
}

// Validate checks the options locally.
func (o AccessLogsOptions) Validate() error {
	switch {
	case o.Start != nil && o.End == nil:
		return invalidField("end", "required when start is set (start and end go together)")
	case o.Start == nil && o.End != nil:
		return invalidField("start", "required when end is set (start and end go together)")
	case o.Start != nil && o.End.Before(*o.Start):
		return invalidField("end", "must not be before start")
	}
	if o.IPAddress != "" {
		if ip := net.ParseIP(o.IPAddress); ip == nil || ip.To4() == nil {
			return invalidField("ipAddress", "must be an IPv4 address, got %q", o.IPAddress)
		}
	}
	if o.NLogs != nil {
		return limits.NLogs(*o.NLogs)
	}
	return nil
}

func (o AccessLogsOptions) query() url.Values {
	q := url.Values{}
	if o.AuthResult != nil {
		q.Set("authResult", strconv.FormatBool(*o.AuthResult))
	}
	if o.Start != nil {
		q.Set("start", strconv.FormatInt(o.Start.UnixMilli(), 10))
		q.Set("end", strconv.FormatInt(o.End.UnixMilli(), 10))
	}
	if o.IPAddress != "" {
		q.Set("ipAddress", o.IPAddress)
	}
	if o.NLogs != nil {
		q.Set("nLogs", strconv.Itoa(*o.NLogs))
	}
	return q
}

// ByCluster reads a cluster's access history.
func (s AccessLogsService) ByCluster(ctx context.Context, groupID, clusterName string, o AccessLogsOptions) ([]AccessLog, error) {
	return s.list(ctx, "listAccessLogsByClusterName", clusterParams(groupID, clusterName), o)
}

// ByHost reads one host's access history.
func (s AccessLogsService) ByHost(ctx context.Context, groupID, hostname string, o AccessLogsOptions) ([]AccessLog, error) {
	return s.list(ctx, "listAccessLogsByHostname", groupParams(groupID, "hostname", hostname), o)
}

func (s AccessLogsService) list(ctx context.Context, opID string, params map[string]string, o AccessLogsOptions) ([]AccessLog, error) {
	if err := o.Validate(); err != nil {
		return nil, fmt.Errorf("access logs: %w", err)
	}
	out, err := getJSON[accessLogList](ctx, s.c, opID, Request{Params: params, Query: o.query()})
	if err != nil {
		return nil, err
	}
	return out.AccessLogs, nil
}
