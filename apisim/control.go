package apisim

import (
	"encoding/json"
	"io"
	"net/http"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// The control API, for tests and demos, lives outside the versioned API
// under /api/{service}/sim and needs an Organization Owner identity:
//
//	GET  /api/{service}/sim/clock               {"now": ...}
//	POST /api/{service}/sim/clock/advance?d=30s  move the clock (not with a
//	                                             caller-supplied Clock that
//	                                             cannot advance)
//	/api/{service}/sim/incidents, /notifications the incident engine
//	                                             (incidents_control.go)
//	GET  /api/{service}/sim/requests             recent requests, oldest first
//	PUT  /api/{service}/sim/faults               fault rates, lose the next N write answers
//	                                             (faults_control.go)
//	PUT  /api/{service}/sim/ratelimits/spend     another client spending a bucket
//	                                             (ratelimit_spend.go)
//
// Bodies are application/json.
func (s *Server) controlRoutes(mux *http.ServeMux) {
	root := "/api/" + s.service + "/sim"
	mux.HandleFunc("GET "+root+"/clock", s.control(func(w http.ResponseWriter, r *http.Request) (int, any, *apiError) {
		return http.StatusOK, map[string]any{"now": fmtTime(s.clock.Now())}, nil
	}))
	mux.HandleFunc("POST "+root+"/clock/advance", s.control(func(w http.ResponseWriter, r *http.Request) (int, any, *apiError) {
		d, err := time.ParseDuration(r.URL.Query().Get("d"))
		if err != nil || d <= 0 || d > 10*365*24*time.Hour {
			return 0, nil, errField("d", "must be a positive duration such as 30s or 2h")
		}
		if s.clock.Now().Add(d).After(maxClock) {
			return 0, nil, errField("d", "would move the clock past %s: times the world sets from it (expiry, retention) could no longer be written", maxClock.Format("2006-01-02"))
		}
		adv, ok := s.clock.(advancer)
		if !ok {
			return 0, nil, errBadRequest("CLOCK_NOT_ADJUSTABLE", "This server's clock cannot be advanced.")
		}
		adv.Advance(d)
		s.touch() // the state file keeps the clock (persist.go)
		return http.StatusOK, map[string]any{"now": fmtTime(s.clock.Now())}, nil
	}))
	s.incidentRoutes(mux, root)         // incidents_control.go
	s.faultRoutes(mux, root)            // faults_control.go
	s.rateLimitControlRoutes(mux, root) // ratelimit_spend.go
	mux.HandleFunc("GET "+root+"/requests", s.control(func(w http.ResponseWriter, r *http.Request) (int, any, *apiError) {
		recs := s.reqlog.recent()
		if recs == nil {
			recs = []RequestRecord{}
		}
		return http.StatusOK, map[string]any{"requests": recs}, nil
	}))
}

type controlFunc func(w http.ResponseWriter, r *http.Request) (int, any, *apiError)

func (s *Server) control(f controlFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, e := s.authenticate(w, r)
		if e != nil {
			writeError(w, e, false)
			return
		}
		setIdentity(r, id.PublicKey)
		owner := false
		for _, a := range id.Roles {
			if a.RoleName == catalog.OrgOwner && a.OrgID != "" {
				owner = true
			}
		}
		if !owner {
			writeError(w, newError(http.StatusForbidden, "USER_UNAUTHORIZED", "The control API needs %s.", catalog.OrgOwner.Label()), false)
			return
		}
		status, body, e := f(w, r)
		if e != nil {
			writeError(w, e, false)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(body)
	}
}

// lockedCopy encodes a control answer that holds world objects while s.mu
// is held: they may change under other calls once it is released.
func lockedCopy(v any) any {
	b, err := marshalRaw(v)
	if err != nil {
		return map[string]string{"error": err.Error()}
	}
	return b
}

// readJSON decodes a control request's JSON body, of at most maxBodyBytes,
// into v.
func readJSON(w http.ResponseWriter, r *http.Request, v any) *apiError {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		return newError(http.StatusRequestEntityTooLarge, "REQUEST_TOO_LARGE", "The request body is larger than %d bytes.", maxBodyBytes)
	}
	return decodeJSON(b, v)
}
