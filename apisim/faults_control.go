package apisim

import (
	"net/http"
)

// PUT /api/{service}/sim/faults sets the fault rates while the server runs
// (what -fault-rate and -malformed-rate set at start), and malformedWrites:
// the next N successful write answers (POST, PATCH, PUT, DELETE) are lost
// whatever the rates, so a test can lose one answer on purpose: the write
// is applied, then a body is truncated and an answer without one (a
// cut-over's 202, a DELETE's 204) is dropped with the connection before
// its status line (faults.go); failWrites: the next N writes are refused with a 503 before
// anything is applied, so a test can fail one row of a bulk action. Fields
// left out are unchanged; it answers the new settings.
func (s *Server) faultRoutes(mux *http.ServeMux, root string) {
	mux.HandleFunc("PUT "+root+"/faults", s.control(func(w http.ResponseWriter, r *http.Request) (int, any, *apiError) {
		var b struct {
			FaultRate       *float64 `json:"faultRate"`
			MalformedRate   *float64 `json:"malformedRate"`
			MalformedWrites *int     `json:"malformedWrites"`
			FailWrites      *int     `json:"failWrites"`
		}
		if e := readJSON(w, r, &b); e != nil {
			return 0, nil, e
		}
		for name, v := range map[string]*float64{"faultRate": b.FaultRate, "malformedRate": b.MalformedRate} {
			if v != nil && (*v < 0 || *v > 1) {
				return 0, nil, errField(name, "must be between 0 and 1")
			}
		}
		for name, v := range map[string]*int{"malformedWrites": b.MalformedWrites, "failWrites": b.FailWrites} {
			if v != nil && (*v < 0 || *v > 1000000) {
				return 0, nil, errField(name, "must be between 0 and 1000000")
			}
		}
		f := s.faults
		f.mu.Lock()
		defer f.mu.Unlock()
		if b.FaultRate != nil {
			f.faultRate = *b.FaultRate
		}
		if b.MalformedRate != nil {
			f.malformed = *b.MalformedRate
		}
		if b.MalformedWrites != nil {
			f.malformedWrites = *b.MalformedWrites
		}
		if b.FailWrites != nil {
			f.failWrites = *b.FailWrites
		}
		return http.StatusOK, map[string]any{"faultRate": f.faultRate, "malformedRate": f.malformed, "malformedWrites": f.malformedWrites,
			"failWrites": f.failWrites}, nil
	}))
}
