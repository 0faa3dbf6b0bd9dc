package apiclient

import "github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"

// Budget is what the client knows of the bucket an operation on a project
// draws from: its capacity and the tokens the client may spend from it now
// (the one it keeps back not counted). ok is false while nothing is known
// of it: no rateLimits answer names its set and no answer has carried its
// RateLimit-* headers. It reads the scheduler's state and changes nothing.
func (s *Scheduler) Budget(opID, groupID string) (capacity int, tokens float64, ok bool) {
	op, found := catalog.Get(opID)
	if !found {
		return 0, 0, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.buckets[s.bucketKeyLocked(op, map[string]string{"groupId": groupID})]
	if b == nil || b.lim == nil {
		if ls, learned := s.opSet[op.ID]; learned {
			if v, known := s.values[ls.id]; known {
				return v.Capacity, float64(usable(v.Capacity)), true
			}
		}
		return 0, 0, false
	}
	return b.limit.Capacity, max(0, b.lim.TokensAt(s.now())), true
}
