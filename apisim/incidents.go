package apisim

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"time"
)

// The incident engine. Incidents are the events alert configurations react
// to (spec section 6). They fire on the clock from a seeded schedule, or on
// demand through the control API; each one opens an alert for every enabled
// configuration of its event type whose matchers all hold, and those
// alerts notify each of their configuration's targets after delayMin and
// then every intervalMin while the alert is open and not acknowledged. A
// resolved incident closes its alerts with resolved set.
//
// Like the rest of the world the engine moves with the clock, not with a
// goroutine: every alert or alert-configuration call and every control call
// first catches the engine up to now, replaying what fell due in between in
// time order. Webhook notifications fall due the same way and are POSTed
// right after the catch-up that recorded them.

// Incident is one event that happened to a resource.
type Incident struct {
	ID            string            `json:"id"`
	GroupID       string            `json:"groupId"`
	EventTypeName string            `json:"eventTypeName"`
	Family        string            `json:"family"`
	Attributes    map[string]string `json:"attributes"` // matcher field name -> value
	Started       time.Time         `json:"started"`
	// ResolvesAt is when the condition clears by itself; nil: it lasts
	// until resolved through the control API.
	ResolvesAt *time.Time `json:"resolvesAt,omitempty"`
	Resolved   *time.Time `json:"resolved,omitempty"`
	AlertIDs   []string   `json:"alertIds"`
	Source     string     `json:"source"` // "schedule" or "control"
}

// incidentState is the engine's part of the World.
type incidentState struct {
	LastTick      time.Time             `json:"lastTick"`
	NextEvent     time.Time             `json:"nextEvent"`
	Scheduled     bool                  `json:"scheduled"` // events fire on the clock
	EventSeq      uint64                `json:"eventSeq"`
	Incidents     []*Incident           `json:"incidents"`
	Schedules     []*notifySchedule     `json:"schedules"`
	Notifications []*NotificationRecord `json:"notifications"`
}

// Bounds that keep a long clock jump cheap.
const (
	maxCatchUp         = 48 * time.Hour // older due work is skipped, not replayed
	maxIncidents       = 1000
	maxNotifications   = 5000
	maxStepsPerAdvance = 20000
)

// engine returns the World's incident state, starting it at now.
func (w *World) engine(now time.Time) *incidentState {
	if w.Incidents == nil {
		w.Incidents = &incidentState{LastTick: now, Scheduled: true}
		w.Incidents.NextEvent = now.Add(w.eventGap(0))
	}
	return w.Incidents
}

// eventGap is the deterministic time between scheduled incidents: 8 to 25
// minutes of server time.
func (w *World) eventGap(seq uint64) time.Duration {
	r := w.eventRand(seq, 1)
	return time.Duration(8*60+r.IntN(17*60)) * time.Second
}

func (w *World) eventRand(seq, stream uint64) *rand.Rand {
	h := fnv.New64a()
	fmt.Fprintf(h, "incident-%d-%d", w.Seed, seq)
	return rand.New(rand.NewPCG(h.Sum64(), stream))
}

// advanceIncidents replays everything due up to now: scheduled incidents,
// incidents that clear, and notifications. It returns the webhooks to POST.
func (w *World) advanceIncidents(now time.Time) []webhookDelivery {
	st := w.engine(now)
	if !now.After(st.LastTick) {
		return nil
	}
	if floor := now.Add(-maxCatchUp); st.LastTick.Before(floor) {
		// A jump of days: skip the old work rather than replay it.
		st.LastTick = floor
		if st.NextEvent.Before(floor) {
			st.NextEvent = floor.Add(w.eventGap(st.EventSeq))
		}
		for _, s := range st.Schedules {
			if s.Next.Before(floor) {
				s.Next = floor
			}
		}
	}
	var out []webhookDelivery
	for range maxStepsPerAdvance {
		t, step := w.nextDue(st, now)
		if step == nil {
			break
		}
		out = append(out, step(t)...)
	}
	st.LastTick = now
	return out
}

// nextDue finds the earliest piece of work at or before now.
func (w *World) nextDue(st *incidentState, now time.Time) (time.Time, func(time.Time) []webhookDelivery) {
	var best time.Time
	var do func(time.Time) []webhookDelivery
	consider := func(t time.Time, f func(time.Time) []webhookDelivery) {
		if t.After(now) || (do != nil && !t.Before(best)) {
			return
		}
		best, do = t, f
	}
	if st.Scheduled {
		consider(st.NextEvent, func(t time.Time) []webhookDelivery {
			seq := st.EventSeq
			st.EventSeq++
			st.NextEvent = t.Add(w.eventGap(st.EventSeq))
			if ev := w.scheduledIncident(seq, t); ev != nil {
				return w.raise(ev, t)
			}
			return nil
		})
	}
	for _, in := range st.Incidents {
		if in.Resolved == nil && in.ResolvesAt != nil {
			in := in
			consider(*in.ResolvesAt, func(t time.Time) []webhookDelivery { return w.resolveIncident(in, t) })
		}
	}
	for _, s := range st.Schedules {
		s := s
		consider(s.Next, func(t time.Time) []webhookDelivery { return w.notifyDue(s, t) })
	}
	return best, do
}

// eventSpec is one kind of incident the schedule draws from.
type eventSpec struct {
	event, family string
	resource      string // "host", "cluster", "project" or "org"
	weight        int
	lasts         [2]int // minutes it lasts (min, max); {0,0}: until resolved
}

// scheduledEvents are drawn by weight; the ones the seeded configurations
// watch are frequent so the demo moves, the rest of section 6's families
// show up now and then.
var scheduledEvents = []eventSpec{
	{"HOST_DOWN", "Host Event Types", "host", 6, [2]int{4, 40}},
	{"OUTSIDE_METRIC_THRESHOLD", "Host Metric Event Types", "host", 8, [2]int{5, 90}},
	{"NO_PRIMARY", "Replica Set Event Types", "cluster", 4, [2]int{2, 20}},
	{"REPLICATION_OPLOG_WINDOW_RUNNING_OUT", "Replica Set Event Types", "cluster", 3, [2]int{30, 240}},
	{"CPS_SNAPSHOT_FAILED", "Cps Backup Event Types", "cluster", 3, [2]int{60, 600}},
	{"CLUSTER_MONGOS_IS_MISSING", "Cluster Event Types", "cluster", 2, [2]int{3, 30}},
	{"DEPLOYMENT_FAILURE", "NDS Audit Types", "cluster", 2, [2]int{10, 120}},
	{"CLUSTER_BLOCK_WRITE", "NDS Audit Types", "cluster", 2, [2]int{0, 0}},
	{"CLUSTER_UNBLOCK_WRITE", "NDS Audit Types", "cluster", 1, [2]int{1, 1}},
	{"HOST_NOT_ENOUGH_DISK_SPACE", "Host Event Types", "host", 2, [2]int{20, 180}},
	{"AUTO_HEALING_CANNOT_REPAIR_INTERNAL", "NDS Audit Types", "host", 1, [2]int{0, 0}},
	{"FTDC_SETTINGS_UPDATED", "NDS Audit Types", "cluster", 1, [2]int{1, 1}},
	{"STEP_SKIPPED", "NDS Maintenance Window Audit Types", "cluster", 1, [2]int{1, 1}},
	{"CREDIT_CARD_ABOUT_TO_EXPIRE", "Billing Event Types", "org", 1, [2]int{0, 0}},
	{"SANDBOX_ENABLED_FOR_ORG", "User Event Types", "org", 1, [2]int{1, 1}},
	{"CUSTOM_SESSION_TIMEOUT_MODIFIED", "Resource Event Types", "org", 1, [2]int{1, 1}},
}

// eventFamily names the section-6 family of an event type, for incidents
// raised through the control API.
func eventFamily(event string) (eventSpec, bool) {
	for _, e := range scheduledEvents {
		if e.event == event {
			return e, true
		}
	}
	return eventSpec{}, false
}

// scheduledIncident draws the seq-th scheduled incident: mostly in the
// payments project, on one of its clusters or hosts.
func (w *World) scheduledIncident(seq uint64, now time.Time) *Incident {
	r := w.eventRand(seq, 2)
	total := 0
	for _, e := range scheduledEvents {
		total += e.weight
	}
	pick := r.IntN(total)
	var spec eventSpec
	for _, e := range scheduledEvents {
		if pick < e.weight {
			spec = e
			break
		}
		pick -= e.weight
	}
	groups := []string{DemoPaymentsID, DemoPaymentsID, DemoPaymentsID, DemoPaymentsID, DemoAnalyticsID, DemoStagingID}
	gid := groups[r.IntN(len(groups))]
	if w.project(gid) == nil {
		if len(w.Projects) == 0 {
			return nil
		}
		gid = w.Projects[0].ID
	}
	var cls []*Cluster
	for _, c := range w.clustersOf(gid) {
		if c.dedicated() {
			cls = append(cls, c)
		}
	}
	in := &Incident{GroupID: gid, EventTypeName: spec.event, Family: spec.family, Source: "schedule", Attributes: map[string]string{}}
	if spec.resource == "host" || spec.resource == "cluster" {
		if len(cls) == 0 {
			return nil
		}
		cl := cls[r.IntN(len(cls))]
		var host *Process
		if spec.resource == "host" {
			hosts := w.hostsOf(gid, cl.Name)
			if len(hosts) > 0 {
				host = hosts[r.IntN(len(hosts))]
			}
		}
		in.Attributes = resourceAttributes(cl, host)
	}
	if spec.event == "OUTSIDE_METRIC_THRESHOLD" {
		metrics := []string{"CONNECTIONS", "DISK_PARTITION_SPACE_USED_DATA"}
		in.Attributes["METRIC_NAME"] = metrics[r.IntN(len(metrics))]
	}
	if spec.lasts != [2]int{} {
		d := time.Duration(spec.lasts[0]+r.IntN(spec.lasts[1]-spec.lasts[0]+1)) * time.Minute
		at := now.Add(d)
		in.ResolvesAt = &at
	}
	return in
}

func (w *World) hostsOf(groupID, cluster string) []*Process {
	var out []*Process
	for _, h := range w.Hosts {
		if h.GroupID == groupID && h.ClusterName == cluster {
			out = append(out, h)
		}
	}
	return out
}

// raise records an incident and opens an alert for every enabled
// configuration of its project and event type whose matchers hold.
func (w *World) raise(in *Incident, now time.Time) []webhookDelivery {
	st := w.engine(now)
	in.ID = w.newID()
	in.Started = now
	if in.Family == "" {
		if spec, ok := eventFamily(in.EventTypeName); ok {
			in.Family = spec.family
		}
	}
	if in.Attributes == nil {
		in.Attributes = map[string]string{}
	}
	st.Incidents = append(st.Incidents, in)
	if n := len(st.Incidents) - maxIncidents; n > 0 {
		st.Incidents = slices.Delete(st.Incidents, 0, n)
	}
	p := w.project(in.GroupID)
	if p == nil {
		return nil
	}
	var out []webhookDelivery
	for _, ac := range w.AlertConfigs {
		if ac.GroupID != in.GroupID || !ac.Enabled || ac.EventTypeName != in.EventTypeName || !matchesAll(ac.Matchers, in.Attributes) {
			continue
		}
		a := &Alert{
			ID: w.newID(), GroupID: in.GroupID, OrgID: p.OrgID, AlertConfigID: ac.ID, Created: now, Updated: now,
			EventTypeName: in.EventTypeName, Status: "OPEN",
			ClusterName: in.Attributes["CLUSTER_NAME"], HostnameAndPort: in.Attributes["HOSTNAME_AND_PORT"],
			ReplicaSetName: in.Attributes["REPLICA_SET_NAME"], MetricName: in.Attributes["METRIC_NAME"],
		}
		if a.MetricName != "" {
			units, _ := ac.MetricThreshold["units"].(string)
			a.CurrentValue = &CurrentValue{Number: 85 + float64(len(w.Alerts)%15), Units: readingUnits(units)}
		}
		w.Alerts = append(w.Alerts, a)
		in.AlertIDs = append(in.AlertIDs, a.ID)
		for i, n := range ac.Notifications {
			s := &notifySchedule{AlertID: a.ID, AlertConfigID: ac.ID, Index: i, Next: now.Add(minutes(n["delayMin"]))}
			st.Schedules = append(st.Schedules, s)
			if !s.Next.After(now) {
				out = append(out, w.notifyDue(s, now)...)
			}
		}
	}
	return out
}

// readingUnits is the unit of an alert's currentValue for a configuration's
// threshold units: the reading uses the service's unit enum (bytes, MB,
// msec, ...), which has no RAW; a raw metric's reading is a count.
func readingUnits(threshold string) string {
	switch threshold {
	case "BITS":
		return "bits"
	case "KILOBITS":
		return "Kbits"
	case "MEGABITS":
		return "Mbits"
	case "GIGABITS":
		return "Gbits"
	case "BYTES":
		return "bytes"
	case "KILOBYTES":
		return "KB"
	case "MEGABYTES":
		return "MB"
	case "GIGABYTES":
		return "GB"
	case "TERABYTES":
		return "TB"
	case "PETABYTES":
		return "PB"
	case "NANOSECONDS":
		return "nsec"
	case "MILLISECONDS":
		return "msec"
	case "MILLION_MINUTES":
		return "million minutes"
	case "SECONDS":
		return "sec"
	case "MINUTES":
		return "min"
	case "HOURS":
		return "hours"
	case "DAYS":
		return "days"
	case "THOUSAND":
		return "thousand"
	case "MILLION":
		return "million"
	case "BILLION":
		return "billion"
	}
	return "count" // RAW and COUNT
}

// resolveIncident clears an incident: its open or tracking alerts close
// with resolved set, and targets that were told of the alert hear it is
// resolved.
func (w *World) resolveIncident(in *Incident, now time.Time) []webhookDelivery {
	t := now
	in.Resolved = &t
	var out []webhookDelivery
	for _, id := range in.AlertIDs {
		a := find(w.Alerts, func(x *Alert) bool { return x.ID == id })
		if a == nil || (a.Status != "OPEN" && a.Status != "TRACKING") {
			continue
		}
		a.Status = "CLOSED"
		a.Resolved = &t
		a.Updated = now
		ac := find(w.AlertConfigs, func(x *AlertConfig) bool { return x.ID == a.AlertConfigID })
		for _, s := range slices.Clone(w.Incidents.Schedules) {
			if s.AlertID != a.ID {
				continue
			}
			if s.Sent > 0 && ac != nil && s.Index < len(ac.Notifications) {
				if _, hook := w.record(a, ac, s.Index, "resolved", now); hook != nil {
					out = append(out, *hook)
				}
			}
			w.dropSchedule(s)
		}
	}
	return out
}

// fireIncident raises an incident on a cluster (its primary host for the
// host event types) and returns the first alert it opened. When no enabled
// configuration matches, one is created for the event type so a demo
// incident always shows; the control API does not do that.
func (w *World) fireIncident(groupID, eventType, clusterName string, now time.Time) *Alert {
	in := w.newIncident(groupID, eventType, clusterName, "", nil)
	in.Source = "control"
	w.raise(in, now)
	if len(in.AlertIDs) == 0 {
		ac := &AlertConfig{
			ID: w.newID(), GroupID: groupID, Created: now, Updated: now, Enabled: true, EventTypeName: eventType, Matchers: []Matcher{},
			Notifications: []map[string]any{{"typeName": "GROUP", "delayMin": 0.0, "intervalMin": 60.0, "emailEnabled": true, "roles": []any{"GROUP_OWNER"}}},
		}
		w.AlertConfigs = append(w.AlertConfigs, ac)
		in = w.newIncident(groupID, eventType, clusterName, "", nil)
		in.Source = "control"
		w.raise(in, now)
	}
	if len(in.AlertIDs) == 0 {
		return nil
	}
	return find(w.Alerts, func(x *Alert) bool { return x.ID == in.AlertIDs[0] })
}

// newIncident builds an incident on a cluster or host of a project; host
// event types default to the cluster's primary.
func (w *World) newIncident(groupID, eventType, clusterName, hostAndPort string, extra map[string]string) *Incident {
	in := &Incident{GroupID: groupID, EventTypeName: eventType, Attributes: map[string]string{}}
	spec, known := eventFamily(eventType)
	if known {
		in.Family = spec.family
	}
	if cl := w.cluster(groupID, clusterName); cl != nil {
		var host *Process
		for _, h := range w.hostsOf(groupID, cl.Name) {
			if h.ID == hostAndPort || (hostAndPort == "" && spec.resource == "host" && matcherTypeName(h.TypeName) == "PRIMARY" && host == nil) {
				host = h
			}
		}
		in.Attributes = resourceAttributes(cl, host)
	}
	for k, v := range extra {
		in.Attributes[k] = v
	}
	return in
}
