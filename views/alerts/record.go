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
func (p *Pane) record(a *apiclient.Alert) record {
	r := record{id: a.ID, configID: p.internString(a.AlertConfigID), event: p.internString(a.EventTypeName),
		status: apiclient.AlertStatus(p.internString(string(a.Status))), ackBy: p.internString(a.AcknowledgingUsername),
		where: p.placeOf(a), created: stampOf(a.Created)}
	if a.AcknowledgedUntil != nil {
		r.ackUntil, r.hasAck = stampOf(*a.AcknowledgedUntil), true
	}
	return r
}

func (p *Pane) placeOf(a *apiclient.Alert) *place {
	key := [3]string{a.ClusterName, a.HostnameAndPort, a.ReplicaSetName}
	if pl, ok := p.places[key]; ok {
		return pl
	}
	pl := &place{cluster: p.internString(key[0]), host: p.internString(key[1]), replicaSet: p.internString(key[2])}
	pl.target = target(apiclient.Alert{ClusterName: pl.cluster, HostnameAndPort: pl.host, ReplicaSetName: pl.replicaSet})
	if p.places == nil {
		p.places = map[[3]string]*place{}
	}
	if len(p.places) < 1<<16 {
		p.places[key] = pl
	}
	return pl
}

// alert is the alert with that id: the whole one when the detail read it,
// else what the store keeps of it.
func (p *Pane) alert(id string) (apiclient.Alert, bool) {
	i, ok := p.byID[id]
	if !ok {
		return apiclient.Alert{}, false
	}
	if p.full != nil && p.full.ID == id {
		return *p.full, true
	}
	return p.alerts[i].alert(), true
}

// keepFull keeps the whole alert when the detail shows it (a copy without
// links: the page it came in can go).
func (p *Pane) keepFull(a *apiclient.Alert) {
	if a.ID == "" || a.ID != p.detailID {
		return
	}
	c := *a
	c.Links = nil
	p.full = &c
}
