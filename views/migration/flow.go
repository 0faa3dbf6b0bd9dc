package migration

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// step is one stage of the guided flow.
type step int

const (
	stepToken step = iota
	stepSource
	stepDestination
	stepOptions
	stepProgress
)

func (s step) title() string {
	switch s {
	case stepToken:
		return "Link token"
	case stepSource:
		return "Source"
	case stepDestination:
		return "Destination"
	case stepOptions:
		return "Options & check"
	}
	return "Progress"
}

// tokenState is the link token this session created. The token itself is
// kept only while the token step shows it: it is shown once.
type tokenState struct {
	value     string
	createdAt time.Time
	ips       []string
	hidden    bool // created, shown, and forgotten
	deletedAt time.Time
}

func (t *tokenState) hide() {
	if t.value != "" {
		t.value, t.hidden = "", true
	}
}

// sourceRow is one deployment of one available source project.
type sourceRow struct {
	project apiclient.AvailableProject
	dep     apiclient.AvailableDeployment
}

func (r sourceRow) id() string { return r.project.ProjectID + "/" + r.dep.Name }

// draft is the migration request being built. The password never renders.
type draft struct {
	source         *sourceRow
	dest           *apiclient.Cluster
	host           string
	managedAuth    bool
	username       string
	password       string
	ssl            bool
	caPath         string
	hostnameSchema apiclient.HostnameSchema
	privateLinkID  string
	sharding       string // "db.coll:field[,field]" entries, ';' between
	supportIndexes bool
	drop           bool
	optionsSet     bool // the options form was submitted at least once
}

func (d *draft) reset() {
	*d = draft{managedAuth: true, hostnameSchema: apiclient.HostnamePublic, supportIndexes: true}
}

func (d *draft) pickSource(r sourceRow) {
	if d.source == nil || d.source.id() != r.id() {
		d.ssl = r.dep.TLSEnabled
		d.host = ""
		if len(r.project.MigrationHosts) > 0 {
			d.host = r.project.MigrationHosts[0]
		}
	}
	row := r
	d.source = &row
}

// destSharded reports whether the destination takes sharding entries.
func (d draft) destSharded() bool {
	return d.dest != nil && (d.dest.ClusterType == apiclient.ClusterSharded || d.dest.ClusterType == apiclient.ClusterGeoSharded)
}

// missing says what the flow still needs before a request can be built.
func (d draft) missing() string {
	switch {
	case d.source == nil:
		return "pick a source deployment first (step 2)"
	case d.dest == nil:
		return "pick a destination cluster first (step 3)"
	}
	if why := d.destWhy(*d.dest); why != "" {
		return "destination " + d.dest.Name + " cannot receive this migration: " + why + "; pick another (step 3)"
	}
	return ""
}

// destWhy says why a cluster cannot be the destination for the picked
// source ("" when it can, or while no source is picked).
func (d draft) destWhy(c apiclient.Cluster) string {
	if d.source == nil {
		return ""
	}
	return apiclient.MigrationDestinationEligible(d.source.dep.MongoDBVersion, c).Reason
}

// request builds the API request from the draft.
func (d draft) request(groupID string) (apiclient.MigrationRequest, error) {
	if why := d.missing(); why != "" {
		return apiclient.MigrationRequest{}, fmt.Errorf("%s", why)
	}
	r := apiclient.MigrationRequest{
		Source: apiclient.MigrationSource{ClusterName: d.source.dep.Name, GroupID: d.source.project.ProjectID,
			ManagedAuthentication: d.managedAuth, SSL: d.ssl, CACertificatePath: d.caPath},
		Destination: apiclient.MigrationDestination{ClusterName: d.dest.Name, GroupID: groupID,
			HostnameSchemaType: d.hostnameSchema},
		MigrationHosts:      []string{d.host},
		DropDestinationData: d.drop,
	}
	if !d.managedAuth {
		r.Source.Username, r.Source.Password = d.username, d.password
	}
	if d.hostnameSchema == apiclient.HostnamePrivateLink {
		r.Destination.PrivateLinkID = d.privateLinkID
	}
	if d.destSharded() && strings.TrimSpace(d.sharding) != "" {
		entries, err := parseSharding(d.sharding)
		if err != nil {
			return r, err
		}
		r.Sharding = &apiclient.MigrationSharding{CreateSupportingIndexes: d.supportIndexes, ShardingEntries: entries}
	}
	return r, r.Validate()
}

// parseSharding reads "db.coll:field1,field2; db2.coll2:key" into sharding
// entries with ascending (1) shard keys; "field:hashed" hashes a field.
func parseSharding(text string) ([]apiclient.ShardEntry, error) {
	var out []apiclient.ShardEntry
	for i, part := range strings.Split(text, ";") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		ns, keys, ok := strings.Cut(part, ":")
		db, coll, nsOK := strings.Cut(strings.TrimSpace(ns), ".")
		if !ok || !nsOK || db == "" || coll == "" {
			return nil, fmt.Errorf("sharding entry %d %q: want database.collection:field[,field]", i+1, part)
		}
		var key []map[string]any
		for _, f := range strings.Split(keys, ",") {
			f = strings.TrimSpace(f)
			name, kind, _ := strings.Cut(f, " ")
			if name == "" {
				return nil, fmt.Errorf("sharding entry %d %q: an empty shard key field", i+1, part)
			}
			var v any = 1
			if strings.TrimSpace(kind) == "hashed" {
				v = "hashed"
			}
			key = append(key, map[string]any{name: v})
		}
		out = append(out, apiclient.ShardEntry{Database: db, Collection: coll, ShardCollection: apiclient.ShardKey{Key: key}})
	}
	return out, nil
}

// parseIPs splits an access list typed with commas or spaces and checks
// each entry is an address or a CIDR block.
func parseIPs(text string) ([]string, error) {
	var out []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		if net.ParseIP(f) == nil {
			if _, _, err := net.ParseCIDR(f); err != nil {
				return nil, fmt.Errorf("%q is not an IP address or CIDR block", f)
			}
		}
		out = append(out, f)
	}
	return out, nil
}

// validationState is the last check the pane asked for.
type validationState struct {
	v       apiclient.MigrationValidation
	groupID string
	label   string // "billing-rs → payments-prod"
	at      time.Time
}

// lagSample is one poll's lagTimeSeconds.
type lagSample struct {
	at  time.Time
	lag int64
}

// maxSamples bounds the lag history (a sample per poll).
const maxSamples = 512

// jobState is the migration this session started.
type jobState struct {
	id, groupID   string
	source, dest  string // deployment and cluster names
	sourceProject string
	startedAt     time.Time
	last          apiclient.LiveMigration
	lags          []lagSample
	readyAt       time.Time // first poll that saw readyForCutover
	cutoverAt     *time.Time
	completedAt   time.Time
	failures      int // consecutive poll errors
	pollErr       error
}

func (j *jobState) status() apiclient.MigrationStatus { return j.last.Status }
func (j *jobState) done() bool                        { return j.last.Done() }
func (j *jobState) label() string                     { return j.source + " → " + j.dest }

// observe records one answer of getPushMigration.
func (j *jobState) observe(m apiclient.LiveMigration, now time.Time) {
	j.last = m
	j.failures, j.pollErr = 0, nil
	if m.LagTimeSeconds != nil {
		j.lags = append(j.lags, lagSample{at: now, lag: *m.LagTimeSeconds})
		if len(j.lags) > maxSamples {
			j.lags = j.lags[len(j.lags)-maxSamples:]
		}
	}
	if m.ReadyForCutover && j.readyAt.IsZero() {
		j.readyAt = now
	}
	if m.Done() && j.completedAt.IsZero() {
		j.completedAt = now
	}
}

// phase is where the migration is, in words. The local simulator says so in
// an extension field; against the real service it is derived from status,
// readiness and the cut-over this session asked for.
func (j *jobState) phase() string {
	switch j.last.Phase {
	case apiclient.PhaseStarting:
		return "starting"
	case apiclient.PhaseInitialSync:
		return "initial sync"
	case apiclient.PhaseCatchUp:
		return "oplog catch-up"
	case apiclient.PhaseReady:
		return "ready for cut-over"
	case apiclient.PhaseCuttingOver:
		return "cutting over"
	case apiclient.PhaseComplete:
		return "complete"
	case apiclient.PhaseFailed:
		return "failed"
	case apiclient.PhaseExpired:
		return "expired"
	}
	switch j.last.Status {
	case apiclient.MigrationNew:
		return "starting"
	case apiclient.MigrationComplete:
		return "complete"
	case apiclient.MigrationFailed:
		return "failed"
	case apiclient.MigrationExpired:
		return "expired"
	}
	switch {
	case j.cutoverAt != nil:
		return "cutting over"
	case j.last.ReadyForCutover:
		return "ready for cut-over"
	}
	return "syncing"
}

// lagText is the lag figure, "—" when the server sent none.
func (j *jobState) lagText() string {
	if j.last.LagTimeSeconds == nil {
		return "—"
	}
	return formatLag(*j.last.LagTimeSeconds)
}

func (j *jobState) summary() string {
	s := string(j.last.Status) + ", " + j.phase()
	if j.last.LagTimeSeconds != nil {
		s += ", lag " + j.lagText()
	}
	return s
}

// formatLag prints seconds as "42 s", "12 m 5 s", "2 h 3 m".
func formatLag(sec int64) string {
	switch {
	case sec < 60:
		return strconv.FormatInt(sec, 10) + " s"
	case sec < 3600:
		return fmt.Sprintf("%d m %d s", sec/60, sec%60)
	}
	return fmt.Sprintf("%d h %d m", sec/3600, sec%3600/60)
}

// elapsed is the time since the migration started, frozen when it ended.
func (j *jobState) elapsed(now time.Time) time.Duration {
	if j.done() && !j.completedAt.IsZero() {
		now = j.completedAt
	}
	return now.Sub(j.startedAt)
}

// formatElapsed prints a duration as 1h02m03s / 12m31s / 9s.
func formatElapsed(d time.Duration) string {
	d = max(d, 0).Round(time.Second)
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	switch {
	case h > 0:
		return fmt.Sprintf("%dh%02dm%02ds", h, m, s)
	case m > 0:
		return fmt.Sprintf("%dm%02ds", m, s)
	}
	return fmt.Sprintf("%ds", s)
}

// lostStart is a start whose request left but whose answer was lost or
// unreadable: the server may have made the migration. The API has no list
// of live migrations (only a read by id, and the id was in the lost
// answer), so it cannot be checked. It is never sent again on its own: m
// stays off for its destination and only a deliberate start (M, the
// destination's name typed) sends another.
type lostStart struct {
	n       int // 1, 2, … in the order they were lost
	groupID string
	source  string // deployment name
	dest    string // cluster name
	at      time.Time
	how     string // what came back: "HTTP 201, unreadable answer", "answer lost"
}

func (l lostStart) label() string { return l.source + " → " + l.dest }
