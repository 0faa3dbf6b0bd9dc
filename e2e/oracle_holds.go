package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

func (j *judge) holdAck(n *named, w sentWrite, gid, rest string, body map[string]any) string {
	parts := strings.Split(strings.Trim(rest, "/"), "/")
	if w.Method != "PATCH" || len(parts) != 2 || parts[0] != "alerts" {
		return fmt.Sprintf("the dialog %q named alerts; sent %s %s", n.Title, w.Method, rest)
	}
	id := parts[1]
	a, err := j.api.Alerts().Get(context.Background(), gid, id)
	if err != nil {
		return "the alert written cannot be read: " + err.Error()
	}
	// An alert is named by its id: several share an event and place.
	switch {
	case contains(n.IDs, id):
		n.IDs = remove(n.IDs, id)
	case n.Unnamed > 0:
		n.Unnamed--
		j.Unread["an ack dialog's target out of its list's window (scrolled, or and N more)"]++
	default:
		return fmt.Sprintf("alert %s (%s on %s in %s) is not one the dialog %q named (ids %v, names %q)",
			id, a.EventTypeName, placeOf(*a), j.projects[gid], n.Title, n.IDs, n.Descs)
	}
	if n.TitleDesc != "" && !descMatches(n.TitleDesc, *a, j.projects[gid]) {
		return fmt.Sprintf("alert %s is %s on %s in %s; the dialog's title named %q",
			id, a.EventTypeName, placeOf(*a), j.projects[gid], n.TitleDesc)
	}
	if !n.CommentOK {
		j.Unread["a comment longer than its field shows"]++
	}
	if n.CommentOK && strings.TrimRight(str(body["acknowledgementComment"]), " ") != n.Comment {
		return fmt.Sprintf("comment %q sent, the dialog showed %q", str(body["acknowledgementComment"]), n.Comment)
	}
	if n.Kind == "unack" {
		if body["unacknowledgeAlert"] != true || body["acknowledgedUntil"] != nil {
			return fmt.Sprintf("an unacknowledge was named; sent %s", w.Body)
		}
		return ""
	}
	if body["unacknowledgeAlert"] == true {
		return "an acknowledgement was named; an unacknowledge was sent"
	}
	sent, err := time.Parse(time.RFC3339, str(body["acknowledgedUntil"]))
	if err != nil {
		return fmt.Sprintf("acknowledgedUntil %q is not a date-time", str(body["acknowledgedUntil"]))
	}
	lo, hi, ok := j.untilRange(n)
	if !ok {
		return fmt.Sprintf("acknowledgedUntil %s sent, but the dialog showed %q with Until %q, which names no date", sent.UTC().Format(time.RFC3339), n.Choice, n.Typed)
	}
	if sent.Before(lo) || sent.After(hi) {
		want := lo.UTC().Format(time.RFC3339)
		if !lo.Equal(hi) {
			want = "between " + want + " and " + hi.UTC().Format(time.RFC3339)
		}
		return fmt.Sprintf("acknowledgedUntil %s sent, the dialog showed %q (Until %q): want %s", sent.UTC().Format(time.RFC3339), n.Choice, n.Typed, want)
	}
	return ""
}

// untilRange is the acknowledgedUntil the dialog's choice gives: a typed
// date exactly, a length from the client's now (the server's stopped clock
// plus the time the dashboard has run, give or take a minute).
func (j *judge) untilRange(n *named) (lo, hi time.Time, ok bool) {
	from, to := j.epoch.Add(-time.Minute), j.epoch.Add(time.Since(j.started)+time.Minute)
	switch n.Choice {
	case "1h", "4h", "24h":
		d, _ := time.ParseDuration(n.Choice)
		return from.Add(d), to.Add(d), true
	case "forever":
		return from.AddDate(100, 0, 0), to.AddDate(100, 0, 0), true
	case "until…":
		s := strings.TrimSpace(n.Typed)
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t, err = time.ParseInLocation("2006-01-02 15:04", s, time.UTC)
		}
		if err != nil {
			return time.Time{}, time.Time{}, false
		}
		t = t.Truncate(time.Second)
		return t, t, true
	}
	return time.Time{}, time.Time{}, false
}

// descMatches says whether a shown "EVENT on place", possibly cut, names
// alert a: the event type is there whole, or the text is cut inside it;
// the place is the Alerts pane's ("cluster/host") or the board's ("org ›
// project › cluster", cut from the left), read from its end: the cluster,
// if the alert has one, then the project, as far as the text reaches.
func descMatches(d string, a apiclient.Alert, project string) bool {
	event, place, found := strings.Cut(d, " on ")
	if !matchesShown(event, a.EventTypeName) {
		return false
	}
	if !found {
		// The event alone (no room for the place): the id names the alert.
		return true
	}
	if matchesShown(place, placeOf(a)) {
		return true
	}
	ps := strings.Split(place, " › ")
	if a.ClusterName != "" {
		if !matchesShown(ps[len(ps)-1], a.ClusterName) {
			return false
		}
		ps = ps[:len(ps)-1]
	}
	return len(ps) == 0 || matchesShown(ps[len(ps)-1], project)
}

func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return strings.TrimSuffix(f[0], ":")
}

// placeOf is an alert's place as the Alerts pane names it, written again
// here on purpose: the oracle does not call the code it judges.
func placeOf(a apiclient.Alert) string {
	var parts []string
	for _, s := range []string{a.ClusterName, a.HostnameAndPort} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	if a.HostnameAndPort == "" && a.ReplicaSetName != "" && a.ClusterName == "" {
		parts = append(parts, a.ReplicaSetName)
	}
	if len(parts) == 0 {
		return "project"
	}
	return strings.Join(parts, "/")
}

var restorePath = regexp.MustCompile(`^/(clusters|flexClusters|serverless)/([^/]+)/backup/restoreJobs$`)

// holdRestore holds a restore to its last question: the source cluster,
// the delivery, the snapshot (by id, or by when it was taken), the target
// project and cluster. A flex or serverless source restores through its
// own path, with the target named targetDeploymentItemName and no delivery.
func (j *judge) holdRestore(n *named, w sentWrite, gid, rest string, body map[string]any) string {
	m := restorePath.FindStringSubmatch(rest)
	if w.Method != "POST" || m == nil {
		return fmt.Sprintf("the dialog named a restore; sent %s %s", w.Method, rest)
	}
	if m[2] != n.Cluster {
		return fmt.Sprintf("the dialog named a snapshot of %s; sent %s", n.Cluster, rest)
	}
	flex := m[1] == "flexClusters"
	target, project := str(body["targetClusterName"]), str(body["targetGroupId"])
	if flex {
		target, project = str(body["targetDeploymentItemName"]), str(body["targetProjectId"])
	} else if got := str(body["deliveryType"]); got != n.Delivery {
		return fmt.Sprintf("deliveryType %q sent, the dialog showed %q", got, n.Delivery)
	}
	snap := str(body["snapshotId"])
	if n.FullID != "" && snap != n.FullID {
		return fmt.Sprintf("snapshotId %s sent, the dialog showed snapshot %s", snap, n.FullID)
	}
	if n.Taken != "" {
		taken, err := j.snapshotTaken(gid, m[1], n.Cluster, snap)
		if err != nil {
			return fmt.Sprintf("snapshot %s sent cannot be read: %v", snap, err)
		}
		if taken != n.Taken {
			return fmt.Sprintf("snapshot %s (taken %s) sent, the dialog named the one taken %s", snap, taken, n.Taken)
		}
	}
	if n.Delivery == "download" && !flex {
		if body["targetClusterName"] != nil {
			return fmt.Sprintf("a download restore was named; sent target %v", body["targetClusterName"])
		}
		return ""
	}
	if target != n.Target {
		return fmt.Sprintf("target %q sent, the dialog showed %q", target, n.Target)
	}
	if got := j.projects[project]; got != n.Project {
		return fmt.Sprintf("target project %s (%q) sent, the dialog showed project %q", project, got, n.Project)
	}
	return ""
}

// snapshotTaken is when a snapshot was taken, as the Backups pane shows
// it (a flex snapshot's start, else its scheduled time).
func (j *judge) snapshotTaken(gid, kind, cluster, id string) (string, error) {
	ctx := context.Background()
	var t time.Time
	switch kind {
	case "flexClusters":
		s, err := j.api.Backups().FlexSnapshot(ctx, gid, cluster, id)
		if err != nil {
			return "", err
		}
		switch {
		case s.StartTime != nil:
			t = *s.StartTime
		case s.ScheduledTime != nil:
			t = *s.ScheduledTime
		}
	case "serverless":
		s, err := j.api.Backups().ServerlessSnapshot(ctx, gid, cluster, id)
		if err != nil {
			return "", err
		}
		t = s.CreatedAt
	default:
		s, err := j.api.Backups().Snapshot(ctx, gid, cluster, id)
		if err != nil {
			return "", err
		}
		t = s.CreatedAt
	}
	return t.UTC().Format("2006-01-02 15:04"), nil
}

// holdMigration holds a live migration's check or start to its dialog:
// source, destination, host (the check's also the options it shows; the
// start's whether it drops the destination's data).
func holdMigration(n *named, w sentWrite, rest string, raw []byte) string {
	want := "/liveMigrations"
	if n.Kind == "migrationCheck" {
		want += "/validate"
	}
	if w.Method != "POST" || rest != want {
		return fmt.Sprintf("the dialog %q named a migration; sent %s %s", n.Title, w.Method, rest)
	}
	var b struct {
		Source struct {
			ClusterName           string `json:"clusterName"`
			ManagedAuthentication bool   `json:"managedAuthentication"`
			SSL                   bool   `json:"ssl"`
		} `json:"source"`
		Destination struct {
			ClusterName        string `json:"clusterName"`
			HostnameSchemaType string `json:"hostnameSchemaType"`
		} `json:"destination"`
		MigrationHosts      []string `json:"migrationHosts"`
		DropDestinationData bool     `json:"dropDestinationData"`
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		return "the body is not a migration: " + err.Error()
	}
	switch {
	case b.Source.ClusterName != n.Cluster:
		return fmt.Sprintf("source %q sent, the dialog showed %q", b.Source.ClusterName, n.Cluster)
	case b.Destination.ClusterName != n.Dest:
		return fmt.Sprintf("destination %q sent, the dialog showed %q", b.Destination.ClusterName, n.Dest)
	case len(b.MigrationHosts) != 1 || b.MigrationHosts[0] != n.Host:
		return fmt.Sprintf("migrationHosts %q sent, the dialog showed %q", b.MigrationHosts, n.Host)
	case n.Kind == "migrationStart" && b.DropDestinationData != n.Drop:
		return fmt.Sprintf("dropDestinationData %v sent; the dialog warned of a drop: %v", b.DropDestinationData, n.Drop)
	case n.Kind == "migrationStart" && !n.Options:
		return "" // an older question names no options: nothing more to hold
	case b.Source.ManagedAuthentication != n.Managed:
		return fmt.Sprintf("managedAuthentication %v sent, the dialog showed managed: %v", b.Source.ManagedAuthentication, n.Managed)
	case b.Source.SSL != n.TLS:
		return fmt.Sprintf("ssl %v sent, the dialog showed TLS on: %v", b.Source.SSL, n.TLS)
	case n.Reach != "" && b.Destination.HostnameSchemaType != n.Reach:
		return fmt.Sprintf("hostnameSchemaType %q sent, the dialog showed %q", b.Destination.HostnameSchemaType, n.Reach)
	}
	return ""
}

// sameKeep says whether value unit is the length shown ("7 days").
func sameKeep(shown string, value int, unit string) bool {
	f := strings.Fields(strings.ToLower(shown))
	if len(f) != 2 {
		return false
	}
	v, err := strconv.Atoi(f[0])
	if err != nil || v != value {
		return false
	}
	u := strings.TrimSuffix(f[1], "s")
	return strings.EqualFold(u, strings.TrimSuffix(strings.ToLower(unit), "s"))
}
