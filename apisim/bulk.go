package apisim

import (
	"fmt"
	"slices"
	"time"
)

// AddAlerts gives a project n more alerts, older than the ones it has, for
// load tests and benchmarks of large projects: each copies the shape of one
// of the project's seeded alerts (event, configuration, cluster, host,
// metric) with its own id and time. Like a long-lived project, most are
// CLOSED; about 0.4% stay OPEN and 0.3% TRACKING. With a state file, the
// world is saved as after any change.
func (s *Server) AddAlerts(groupID string, n int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.world
	var shapes []*Alert
	oldest := s.clock.Now()
	for _, a := range w.Alerts {
		if a.GroupID == groupID {
			shapes = append(shapes, a)
			if a.Created.Before(oldest) {
				oldest = a.Created
			}
		}
	}
	if len(shapes) == 0 {
		return fmt.Errorf("project %s has no alerts to copy", groupID)
	}
	bulk := make([]*Alert, n)
	for i := range n {
		src := shapes[i%len(shapes)]
		// Oldest first, a minute apart, ending before the seeded ones.
		created := oldest.Add(-time.Duration(n-i) * time.Minute).UTC().Truncate(time.Second)
		a := &Alert{ID: w.newID(), GroupID: src.GroupID, OrgID: src.OrgID, AlertConfigID: src.AlertConfigID,
			Created: created, Updated: created, EventTypeName: src.EventTypeName, ClusterName: src.ClusterName,
			HostnameAndPort: src.HostnameAndPort, ReplicaSetName: src.ReplicaSetName, MetricName: src.MetricName}
		if src.CurrentValue != nil {
			cv := *src.CurrentValue
			a.CurrentValue = &cv
		}
		ln := created.Add(5 * time.Minute)
		a.LastNotified = &ln
		switch r := i % 1000; {
		case r < 4:
			a.Status = "OPEN"
		case r < 7:
			a.Status = "TRACKING"
		default:
			a.Status = "CLOSED"
			res := created.Add(time.Duration(10+i%600) * time.Minute)
			a.Resolved, a.Updated = &res, res
		}
		bulk[i] = a
	}
	w.Alerts = slices.Concat(bulk, w.Alerts)
	s.touch()
	return nil
}
