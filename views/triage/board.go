package triage

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/alertkit"
)

// Kind is what a board row is about; each owns a pane that enter jumps to.
type Kind string

// The board's kinds, in the order the coverage line names them.
const (
	KindAlert    Kind = "alert"    // OPEN, not acknowledged (new: opened in the last 15 min)
	KindAckEnds  Kind = "ack ends" // acknowledgement ending within the hour
	KindSnapshot Kind = "snapshot" // failed in the last 24 h
	KindRestore  Kind = "restore"  // running or failed
	KindExport   Kind = "export"   // failed
	KindIndex    Kind = "index"    // FAILED, FAILED synonym mapping, build stuck over an hour
	KindCluster  Kind = "cluster"  // paused or not IDLE
	KindVersion  Kind = "version"  // MongoDB past end of life
	// KindMigration: a live migration ready for cut-over, failed, or whose
	// cut-over window ends within 24 h; only those this session started or
	// read (the API cannot list them).
	KindMigration Kind = "migration"
	// KindAuthBurst: at least the profile's threshold of failed
	// authentications within one minute from one address, in the last
	// AuthBurstLookback; read only when the profile asks (costly).
	KindAuthBurst Kind = "auth"
)

// Kinds lists every kind.
var Kinds = []Kind{KindAlert, KindAckEnds, KindSnapshot, KindRestore, KindExport, KindIndex, KindCluster, KindVersion, KindMigration, KindAuthBurst}

// Thresholds of the board.
const (
	NewAlertWithin    = 15 * time.Minute
	AckEndsWithin     = time.Hour
	FailedSnapWithin  = 24 * time.Hour
	StuckBuildAfter   = time.Hour
	CutoverEndsWithin = 24 * time.Hour
	AuthBurstWindow   = time.Minute
	AuthBurstLookback = 15 * time.Minute
)

// Item is one row of the board: something that needs a human.
type Item struct {
	Kind     Kind
	Severity apiclient.Severity
	OrgID    string
	OrgName  string
	GroupID  string
	Project  string
	Cluster  string
	ItemID   string // the alert, snapshot, job or index id; the cluster name for cluster rows
	What     string
	Since    time.Time
	// Event is an alert's event type (alert and ack ends rows).
	Event string
	// AckUntil is an acknowledged alert's end (ack ends rows).
	AckUntil *time.Time
	// Stale: kept from the last good read; the read since failed.
	Stale bool
}

// Key is the row id: unique on the board and stable across refreshes.
func (it Item) Key() string {
	return string(it.Kind) + "/" + it.GroupID + "/" + it.Cluster + "/" + it.ItemID
}

// Where is "org › project › cluster".
func (it Item) Where() string {
	parts := []string{it.OrgName, it.Project}
	if it.Cluster != "" {
		parts = append(parts, it.Cluster)
	}
	return strings.Join(parts, " › ")
}

// Project is one project the board covers.
type Project struct {
	OrgID, OrgName, ID, Name string
}

func (p Project) item(k Kind, sev apiclient.Severity, cluster, id, what string, since time.Time) Item {
	return Item{Kind: k, Severity: sev, OrgID: p.OrgID, OrgName: p.OrgName, GroupID: p.ID, Project: p.Name,
		Cluster: cluster, ItemID: id, What: what, Since: since}
}

// AlertItems are the rows of a project's alerts at now, with the severity
// the Alerts pane shows (configs by id: their severityOverride applies).
func AlertItems(p Project, alerts []apiclient.Alert, configs map[string]apiclient.AlertConfig, now time.Time) []Item {
	var out []Item
	for _, a := range alerts {
		if a.Status != apiclient.AlertOpen {
			continue
		}
		sev := alertkit.Severity(a, configs)
		target := a.ClusterName
		switch {
		case a.Acknowledged(now) && a.AcknowledgedUntil.Sub(now) <= AckEndsWithin:
			what := fmt.Sprintf("%s: ack ends in %s (%s)", a.EventTypeName, components.Age(a.AcknowledgedUntil.Sub(now)), a.AcknowledgingUsername)
			it := p.item(KindAckEnds, sev, target, a.ID, what, a.Created)
			it.Event, it.AckUntil = a.EventTypeName, a.AcknowledgedUntil
			out = append(out, it)
		case !a.Acknowledged(now):
			what := a.EventTypeName
			if now.Sub(a.Created) <= NewAlertWithin {
				what = "new: " + what
			}
			if a.HostnameAndPort != "" {
				what += " on " + a.HostnameAndPort
			}
			it := p.item(KindAlert, sev, target, a.ID, what, a.Created)
			it.Event = a.EventTypeName
			out = append(out, it)
		}
	}
	return out
}

// ClusterItems are the rows of one cluster's own state.
func ClusterItems(p Project, c apiclient.Cluster, now time.Time) []Item {
	var out []Item
	switch {
	case c.Paused:
		out = append(out, p.item(KindCluster, apiclient.SeverityInfo, c.Name, c.Name, "cluster paused", time.Time{}))
	case c.StateName != "" && c.StateName != apiclient.ClusterIdle:
		out = append(out, p.item(KindCluster, apiclient.SeverityWarning, c.Name, c.Name, "cluster "+string(c.StateName), time.Time{}))
	}
	if eol, ok := views.EndOfLife(c.MongoDBVersion); ok && !now.Before(eol) {
		out = append(out, p.item(KindVersion, apiclient.SeverityWarning, c.Name, c.Name,
			fmt.Sprintf("MongoDB %s past end of life (%s)", c.MongoDBVersion, eol.Format("2006-01")), eol))
	}
	return out
}

// BackupItems are the rows of one cluster's snapshots, restores and exports.
func BackupItems(p Project, cluster string, snaps []apiclient.Snapshot, restores []apiclient.RestoreJob, exports []apiclient.ExportJob, now time.Time) []Item {
	var out []Item
	for _, s := range snaps {
		if s.Status == apiclient.SnapshotFailed && now.Sub(s.CreatedAt) <= FailedSnapWithin {
			out = append(out, p.item(KindSnapshot, apiclient.SeverityError, cluster, s.ID, "snapshot failed ("+string(s.FrequencyType)+")", s.CreatedAt))
		}
	}
	for _, j := range restores {
		var since time.Time
		if j.Timestamp != nil {
			since = *j.Timestamp
		}
		switch {
		case j.Failed:
			out = append(out, p.item(KindRestore, apiclient.SeverityError, cluster, j.ID, "restore failed", since))
		case !j.Cancelled && !j.Expired && j.FinishedAt == nil:
			to := string(j.DeliveryType)
			if j.TargetClusterName != "" {
				to = "to " + j.TargetClusterName
			}
			out = append(out, p.item(KindRestore, apiclient.SeverityInfo, cluster, j.ID, "restore running "+to, since))
		}
	}
	for _, j := range exports {
		if j.State == apiclient.ExportFailed {
			out = append(out, p.item(KindExport, apiclient.SeverityError, cluster, j.ID, "export failed", j.CreatedAt))
		}
	}
	return out
}

// IndexItems are the rows of one cluster's search indexes.
func IndexItems(p Project, cluster string, ixs []apiclient.SearchIndex, now time.Time) []Item {
	var out []Item
	for _, ix := range ixs {
		var since time.Time
		if v := ix.LatestDefinitionVersion; v != nil && v.CreatedAt != nil {
			since = *v.CreatedAt
		}
		switch {
		case ix.Status == apiclient.IndexFailed:
			out = append(out, p.item(KindIndex, apiclient.SeverityError, cluster, ix.IndexID, "index "+ix.Name+" FAILED", since))
		case ix.SynonymMappingStatus == apiclient.SynonymFailed:
			out = append(out, p.item(KindIndex, apiclient.SeverityError, cluster, ix.IndexID, "index "+ix.Name+": synonym mapping FAILED", since))
		case (ix.Status == apiclient.IndexBuilding || ix.Status == apiclient.IndexPending) && !since.IsZero() && now.Sub(since) > StuckBuildAfter:
			out = append(out, p.item(KindIndex, apiclient.SeverityWarning, cluster, ix.IndexID,
				"index "+ix.Name+" building for "+components.Age(now.Sub(since)), since))
		}
	}
	return out
}

// severityRank orders severities, most urgent first.
func severityRank(s apiclient.Severity) int {
	switch s {
	case apiclient.SeverityCritical:
		return 0
	case apiclient.SeverityError:
		return 1
	case apiclient.SeverityWarning:
		return 2
	}
	return 3
}

// MigrationItems are the rows of the live migrations this session knows
// in a project: failed, ready for cut-over (warning once the window ends
// within CutoverEndsWithin, counted from when the session first saw it
// ready), expired.
func MigrationItems(p Project, known []apiclient.KnownMigration, now time.Time) []Item {
	var out []Item
	for _, km := range known {
		m := km.Last
		switch {
		case m.Status == apiclient.MigrationFailed:
			out = append(out, p.item(KindMigration, apiclient.SeverityError, km.Cluster, m.ID, "live migration failed", km.Seen))
		case m.Status == apiclient.MigrationExpired:
			out = append(out, p.item(KindMigration, apiclient.SeverityError, km.Cluster, m.ID, "live migration expired: no cut-over in 120 h", km.Seen))
		case m.ReadyForCutover:
			end, _ := km.ExpiresBy()
			sev, what := apiclient.SeverityInfo, "live migration ready for cut-over"
			if left := end.Sub(now); left <= CutoverEndsWithin {
				sev, what = apiclient.SeverityWarning, "live migration: cut-over window ends in at most "+components.Age(left)
			}
			out = append(out, p.item(KindMigration, sev, km.Cluster, m.ID, what, km.ReadySince))
		}
	}
	return out
}

// AuthBurstItems are the rows of one cluster's failed authentications in
// the last AuthBurstLookback (logs: its access log, failures or not): one
// per address with at least threshold failures within AuthBurstWindow, its
// densest minute counted, since that minute's first failure. The row's
// ItemID is the address.
func AuthBurstItems(p Project, cluster string, logs []apiclient.AccessLog, threshold int, now time.Time) []Item {
	byIP := map[string][]time.Time{}
	for _, l := range logs {
		at, ok := l.Time()
		if l.AuthResult || !ok || now.Sub(at) > AuthBurstLookback || l.IPAddress == "" {
			continue
		}
		byIP[l.IPAddress] = append(byIP[l.IPAddress], at)
	}
	var out []Item
	for ip, times := range byIP {
		slices.SortFunc(times, time.Time.Compare)
		most, from := 0, 0
		for i, j := 0, 0; j < len(times); j++ {
			for times[j].Sub(times[i]) >= AuthBurstWindow {
				i++
			}
			if j-i+1 > most {
				most, from = j-i+1, i
			}
		}
		if threshold <= 0 || most < threshold {
			continue
		}
		what := fmt.Sprintf("%d failed authentications in 1 min from %s (%d in %s)",
			most, ip, len(times), components.Age(AuthBurstLookback))
		out = append(out, p.item(KindAuthBurst, apiclient.SeverityWarning, cluster, ip, what, times[from]))
	}
	slices.SortFunc(out, func(a, b Item) int { return strings.Compare(a.ItemID, b.ItemID) })
	return out
}
