package apisim

import (
	"net/http"
	"slices"
	"time"
)

// incidentRoutes are the incident engine's part of the control API:
//
//	POST /api/{service}/sim/incidents                 body {groupId, eventTypeName, clusterName,
//	                                                  hostnameAndPort, attributes, resolveAfter}:
//	                                                  raise an incident now (201 {incident, alerts})
//	GET  /api/{service}/sim/incidents                 {"incidents": [...]}, oldest first
//	POST /api/{service}/sim/incidents/{id}/resolve    clear it now: its alerts close (200 {incident, alerts})
//	PUT  /api/{service}/sim/incidents/schedule        body {enabled}: turn the clock's incidents on or off
//	GET  /api/{service}/sim/notifications             {"notifications": [...]}, oldest first;
//	                                                  ?alertId= and ?groupId= narrow it
func (s *Server) incidentRoutes(mux *http.ServeMux, root string) {
	mux.HandleFunc("POST "+root+"/incidents", s.control(s.postIncident))
	mux.HandleFunc("GET "+root+"/incidents", s.control(func(w http.ResponseWriter, r *http.Request) (int, any, *apiError) {
		s.mu.Lock()
		defer s.mu.Unlock()
		st := s.catchUpLocked()
		out := slices.Clone(st.Incidents)
		if out == nil {
			out = []*Incident{}
		}
		return http.StatusOK, lockedCopy(map[string]any{"incidents": out}), nil
	}))
	mux.HandleFunc("POST "+root+"/incidents/{incidentId}/resolve", s.control(func(w http.ResponseWriter, r *http.Request) (int, any, *apiError) {
		s.mu.Lock()
		defer s.mu.Unlock()
		st := s.catchUpLocked()
		id := r.PathValue("incidentId")
		in := find(st.Incidents, func(x *Incident) bool { return x.ID == id })
		if in == nil {
			return 0, nil, errNotFound("INCIDENT_NOT_FOUND", "No incident with ID %s exists.", id)
		}
		if in.Resolved != nil {
			return 0, nil, errConflict("INCIDENT_ALREADY_RESOLVED", "Incident %s was resolved at %s.", id, fmtTime(*in.Resolved))
		}
		s.sendWebhooks(s.world.resolveIncident(in, s.now()))
		s.touch()
		return http.StatusOK, lockedCopy(map[string]any{"incident": in, "alerts": s.world.alertsOf(in)}), nil
	}))
	mux.HandleFunc("PUT "+root+"/incidents/schedule", s.control(func(w http.ResponseWriter, r *http.Request) (int, any, *apiError) {
		var b struct {
			Enabled *bool `json:"enabled"`
		}
		if e := readJSON(w, r, &b); e != nil {
			return 0, nil, e
		}
		if b.Enabled == nil {
			return 0, nil, errMissing("enabled")
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		st := s.catchUpLocked()
		if *b.Enabled && !st.Scheduled {
			st.NextEvent = s.now().Add(s.world.eventGap(st.EventSeq))
		}
		st.Scheduled = *b.Enabled
		s.touch()
		return http.StatusOK, map[string]any{"enabled": st.Scheduled, "nextEvent": fmtTime(st.NextEvent)}, nil
	}))
	mux.HandleFunc("GET "+root+"/notifications", s.control(func(w http.ResponseWriter, r *http.Request) (int, any, *apiError) {
		s.mu.Lock()
		defer s.mu.Unlock()
		st := s.catchUpLocked()
		alertID, groupID := r.URL.Query().Get("alertId"), r.URL.Query().Get("groupId")
		out := []NotificationRecord{}
		for _, n := range st.Notifications {
			if (alertID == "" || n.AlertID == alertID) && (groupID == "" || n.GroupID == groupID) {
				out = append(out, *n)
			}
		}
		return http.StatusOK, lockedCopy(map[string]any{"notifications": out}), nil
	}))
}

// now is the server clock as handlers see it.
func (s *Server) now() time.Time { return s.clock.Now().UTC().Truncate(time.Second) }

func (s *Server) touch() {
	if s.persist != nil {
		s.persist.touch()
	}
}

// catchUpLocked moves the engine to now (s.mu held) and sends due webhooks.
func (s *Server) catchUpLocked() *incidentState {
	s.sendWebhooks(s.world.advanceIncidents(s.now()))
	return s.world.engine(s.now())
}

func (w *World) alertsOf(in *Incident) []*Alert {
	out := []*Alert{}
	for _, id := range in.AlertIDs {
		if a := find(w.Alerts, func(x *Alert) bool { return x.ID == id }); a != nil {
			out = append(out, a)
		}
	}
	return out
}

func (s *Server) postIncident(w http.ResponseWriter, r *http.Request) (int, any, *apiError) {
	var b struct {
		GroupID         string            `json:"groupId"`
		EventTypeName   string            `json:"eventTypeName"`
		ClusterName     string            `json:"clusterName"`
		HostnameAndPort string            `json:"hostnameAndPort"`
		Attributes      map[string]string `json:"attributes"`
		ResolveAfter    string            `json:"resolveAfter"`
	}
	if e := readJSON(w, r, &b); e != nil {
		return 0, nil, e
	}
	if !eventTypePattern.MatchString(b.EventTypeName) {
		return 0, nil, errField("eventTypeName", "must be an event type name such as HOST_DOWN")
	}
	var resolveAfter time.Duration
	if b.ResolveAfter != "" {
		d, perr := time.ParseDuration(b.ResolveAfter)
		if perr != nil || d <= 0 {
			return 0, nil, errField("resolveAfter", "must be a positive duration such as 30m")
		}
		resolveAfter = d
	}
	for k := range b.Attributes {
		if !slices.Contains(matcherFieldNames, k) && k != "METRIC_NAME" {
			return 0, nil, errField("attributes", "%s is not a matcher field name", k)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.world.project(b.GroupID) == nil {
		return 0, nil, errNotFound("GROUP_NOT_FOUND", "No group with ID %s exists.", b.GroupID)
	}
	if b.ClusterName != "" && s.world.cluster(b.GroupID, b.ClusterName) == nil {
		return 0, nil, errNotFound("CLUSTER_NOT_FOUND", "No cluster named %s exists in group %s.", b.ClusterName, b.GroupID)
	}
	if b.HostnameAndPort != "" && find(s.world.Hosts, func(h *Process) bool {
		return h.ID == b.HostnameAndPort && h.GroupID == b.GroupID && h.ClusterName == b.ClusterName
	}) == nil {
		return 0, nil, errNotFound("HOST_NOT_FOUND", "No host %s exists in cluster %s.", b.HostnameAndPort, b.ClusterName)
	}
	s.catchUpLocked()
	now := s.now()
	in := s.world.newIncident(b.GroupID, b.EventTypeName, b.ClusterName, b.HostnameAndPort, b.Attributes)
	in.Source = "control"
	if resolveAfter > 0 {
		at := now.Add(resolveAfter)
		in.ResolvesAt = &at
	}
	s.sendWebhooks(s.world.raise(in, now))
	s.touch()
	return http.StatusCreated, lockedCopy(map[string]any{"incident": in, "alerts": s.world.alertsOf(in)}), nil
}
