package alerts

import (
	"cmp"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// record is one alert as the store holds it: what the list shows, filters
// and sorts by, and the id, 144 bytes against 312 for an apiclient.Alert
// (plus its own time and value pointers). Strings repeated across alerts
// are interned; the place (cluster, host, replica set and the TARGET cell
// made of them) is shared by every alert about it. What the list does not
// show (updated, last notified, resolved, metric and value, the
// acknowledgement's comment, project and organization) is not kept: the
// detail reads the whole alert when it opens (loadDetail) and keeps that
// one copy (Pane.full) current with each refresh.
type record struct {
	id       string
	configID string
	event    string
	status   apiclient.AlertStatus
	ackBy    string
	where    *place
	created  stamp
	ackUntil stamp // meaningful when hasAck
	// createdCell is the CREATED cell, made once when the row is first
	// built (in the zone of fixedLoc).
	createdCell string
	seen        uint32 // the mark of the last pass that saw it
	hasAck      bool
}

// place is where an alert happened, shared by the alerts about it.
type place struct {
	cluster, host, replicaSet string
	target                    string // the TARGET cell
}

// stamp is a time in 16 bytes instead of time.Time's 24: the zone is not
// kept (cells show times in the dashboard's zone).
type stamp struct {
	sec  int64
	nsec int32
}

func stampOf(t time.Time) stamp { return stamp{sec: t.Unix(), nsec: int32(t.Nanosecond())} }

// time is the stamp in UTC; the zero stamp of a zero time is a zero time.
func (s stamp) time() time.Time { return time.Unix(s.sec, int64(s.nsec)).UTC() }

func (s stamp) compare(o stamp) int {
	if c := cmp.Compare(s.sec, o.sec); c != 0 {
		return c
	}
	return cmp.Compare(s.nsec, o.nsec)
}

// acked reports whether an acknowledgement is in force at now.
func (r *record) acked(now time.Time) bool {
	return r.hasAck && r.ackUntil.compare(stampOf(now)) > 0
}

func (r *record) open() bool { return r.status == apiclient.AlertOpen }

// alert is the record as an apiclient.Alert, with the fields the record
// keeps (the rest empty).
func (r *record) alert() apiclient.Alert {
	a := apiclient.Alert{ID: r.id, AlertConfigID: r.configID, EventTypeName: r.event, Status: r.status,
		AcknowledgingUsername: r.ackBy, Created: r.created.time()}
	if r.where != nil {
		a.ClusterName, a.HostnameAndPort, a.ReplicaSetName = r.where.cluster, r.where.host, r.where.replicaSet
	}
	if r.hasAck {
		t := r.ackUntil.time()
		a.AcknowledgedUntil = &t
	}
	return a
}

// record makes an alert's record, interning its repeated strings.
func (s *store) record(a *apiclient.Alert) record {
	r := record{id: a.ID, configID: s.internString(a.AlertConfigID), event: s.internString(a.EventTypeName),
		status: apiclient.AlertStatus(s.internString(string(a.Status))), ackBy: s.internString(a.AcknowledgingUsername),
		where: s.placeOf(a), created: stampOf(a.Created)}
	if a.AcknowledgedUntil != nil {
		r.ackUntil, r.hasAck = stampOf(*a.AcknowledgedUntil), true
	}
	return r
}

func (s *store) placeOf(a *apiclient.Alert) *place {
	key := [3]string{a.ClusterName, a.HostnameAndPort, a.ReplicaSetName}
	if pl, ok := s.places[key]; ok {
		return pl
	}
	pl := &place{cluster: s.internString(key[0]), host: s.internString(key[1]), replicaSet: s.internString(key[2])}
	pl.target = target(apiclient.Alert{ClusterName: pl.cluster, HostnameAndPort: pl.host, ReplicaSetName: pl.replicaSet})
	if s.places == nil {
		s.places = map[[3]string]*place{}
	}
	if len(s.places) < 1<<16 {
		s.places[key] = pl
	}
	return pl
}

// alert is the alert with that id: the whole one when the detail read it,
// else what the store keeps of it.
func (s *store) alert(id string) (apiclient.Alert, bool) {
	i, ok := s.byID[id]
	if !ok {
		return apiclient.Alert{}, false
	}
	if s.full != nil && s.full.ID == id {
		return *s.full, true
	}
	return s.alerts[i].alert(), true
}

// keepFull keeps the whole alert when it is the one fullID names (the
// detail's) (a copy without
// links: the page it came in can go).
func (s *store) keepFull(a *apiclient.Alert) {
	if a.ID == "" || a.ID != s.fullID {
		return
	}
	c := *a
	c.Links = nil
	s.full = &c
}
