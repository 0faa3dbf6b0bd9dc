package apisim

// ReopenAlerts makes up to n of a project's CLOSED alerts live again, the
// newest first, OPEN and TRACKING in turn: a project in a storm, with
// tens of thousands of live alerts, to measure a client's refreshes
// against (AddAlerts leaves about 0.7% live). It returns how many it
// changed.
func (s *Server) ReopenAlerts(groupID string, n int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	done := 0
	for i := len(s.world.Alerts) - 1; i >= 0 && done < n; i-- {
		a := s.world.Alerts[i]
		if a.GroupID != groupID || a.Status != "CLOSED" {
			continue
		}
		a.Status, a.Resolved = "OPEN", nil
		if done%2 == 1 {
			a.Status = "TRACKING"
		}
		done++
	}
	s.touch()
	return done
}
