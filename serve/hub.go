package serve

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

// Hub is what the sessions know of each other: who is here, who is acting
// on which alert, and who acknowledged which alert lately. It is the
// sessions' write hook (apiclient.WriteHook): a second person's
// acknowledgement of an alert someone acknowledged within Window is
// refused once with who and when, and goes if the same person repeats it
// within ConfirmWithin (the question, answered). Claims are taken under one
// lock before the request leaves, so two sessions racing on one alert send
// one PATCH.
type Hub struct {
	Window        time.Duration // how long an acknowledgement counts as someone's
	ConfirmWithin time.Duration // how long a repeat counts as "yes, again"
	MarkFor       time.Duration // how long an open dialog's mark lasts at most
	now           func() time.Time
	clock         func() time.Time // the server's clock, for "until 09:00"

	mu       sync.Mutex
	sessions map[int]*Session
	acting   map[string]acting  // alert key -> who is acting on it now
	marks    map[int]mark       // session -> what its open dialog does to which alerts
	acked    map[string]claim   // alert key -> the last acknowledgement
	warned   map[string]warning // actor|alert key -> when they were asked
	changed  func(reload bool)  // told when presence changes; reload: a write was applied
}

type acting struct {
	who  string
	what string
	at   time.Time
}

// mark is a session's open dialog: shown on the others' rows, it blocks
// nobody (a dialog left open must not keep a colleague from acting).
type mark struct {
	who    string
	what   string
	alerts map[string]bool // alert keys
	at     time.Time
}

// AlertRef names an alert in its project.
type AlertRef struct{ GroupID, AlertID string }

type claim struct {
	who   string
	at    time.Time
	until *time.Time
}

type warning struct{ at time.Time }

// NewHub returns a hub with the default windows (5 min, 30 s, 2 min).
func NewHub() *Hub {
	return &Hub{Window: 5 * time.Minute, ConfirmWithin: 30 * time.Second, MarkFor: 2 * time.Minute, now: time.Now, clock: time.Now,
		sessions: map[int]*Session{}, acting: map[string]acting{}, marks: map[int]mark{}, acked: map[string]claim{}, warned: map[string]warning{}}
}

// Mark says what session (member who) is doing to alerts in a dialog it
// has open ("acknowledging"); no alerts: its dialog closed. The others'
// rows show it until then, or for MarkFor at most (a dialog left open is
// no longer news).
func (h *Hub) Mark(session int, who, what string, alerts []AlertRef) {
	h.mu.Lock()
	_, had := h.marks[session]
	if len(alerts) == 0 || what == "" {
		delete(h.marks, session)
		h.mu.Unlock()
		if had {
			h.notify(false)
		}
		return
	}
	m := mark{who: who, what: what, alerts: make(map[string]bool, len(alerts)), at: h.now()}
	for _, a := range alerts {
		m.alerts[alertKey(a.GroupID, a.AlertID)] = true
	}
	h.marks[session] = m
	h.mu.Unlock()
	h.notify(false)
	if h.MarkFor > 0 {
		// When it expires, the others draw their rows without it.
		time.AfterFunc(h.MarkFor, func() {
			h.mu.Lock()
			cur, ok := h.marks[session]
			stale := ok && cur.at.Equal(m.at) && cur.what == m.what
			if stale {
				delete(h.marks, session)
			}
			h.mu.Unlock()
			if stale {
				h.notify(false)
			}
		})
	}
}

// SetClock sets the clock "until 09:00" is read on (the demo world's).
func (h *Hub) SetClock(now func() time.Time) { h.clock = now }

func (h *Hub) add(s *Session) {
	h.mu.Lock()
	h.sessions[s.ID] = s
	h.mu.Unlock()
	h.notify(false)
}

func (h *Hub) remove(s *Session) {
	h.mu.Lock()
	delete(h.sessions, s.ID)
	delete(h.marks, s.ID)
	for k, a := range h.acting {
		if a.who == s.Member.Name && !h.hasNameLocked(a.who) {
			delete(h.acting, k)
		}
	}
	h.mu.Unlock()
	h.notify(false)
}

func (h *Hub) hasNameLocked(name string) bool {
	for _, s := range h.sessions {
		if s.Member.Name == name {
			return true
		}
	}
	return false
}

func (h *Hub) notify(reload bool) {
	if h.changed != nil {
		h.changed(reload)
	}
}

// Here is the names of the people connected, sorted, each once.
func (h *Hub) Here() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	seen := map[string]bool{}
	var out []string
	for _, s := range h.sessions {
		if !seen[s.Member.Name] {
			seen[s.Member.Name] = true
			out = append(out, s.Member.Name)
		}
	}
	sort.Strings(out)
	return out
}

// Others is Here without name.
func (h *Hub) Others(name string) []string {
	var out []string
	for _, n := range h.Here() {
		if n != name {
			out = append(out, n)
		}
	}
	return out
}

// Acting is who other than name is acting on the alert ("bob:
// acknowledging"), or "".
func (h *Hub) Acting(name, groupID, alertID string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	key := alertKey(groupID, alertID)
	if a, ok := h.acting[key]; ok && a.who != name {
		return a.who + ": " + a.what
	}
	// An open dialog; of several, the earliest opened.
	var found *mark
	now := h.now()
	for id, m := range h.marks {
		if m.who == name || !m.alerts[key] {
			continue
		}
		if h.MarkFor > 0 && now.Sub(m.at) >= h.MarkFor {
			delete(h.marks, id)
			continue
		}
		if found == nil || m.at.Before(found.at) || (m.at.Equal(found.at) && m.who < found.who) {
			found = &m
		}
	}
	if found == nil {
		return ""
	}
	return found.who + ": " + found.what
}

// Marks are the open dialogs' marks ("alice: acknowledging"), sorted.
func (h *Hub) Marks() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, m := range h.marks {
		out = append(out, m.who+": "+m.what)
	}
	sort.Strings(out)
	return out
}

// AckedBy is who acknowledged the alert within Window, or "".
func (h *Hub) AckedBy(groupID, alertID string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	c, ok := h.acked[alertKey(groupID, alertID)]
	if !ok || h.now().Sub(c.at) >= h.Window {
		return ""
	}
	return c.who
}

func alertKey(groupID, alertID string) string { return groupID + "/" + alertID }

// Before is asked before a session's write leaves.
func (h *Hub) Before(a apiclient.Actor, op catalog.Op, params map[string]string, body any) error {
	if op.ID != "acknowledgeAlert" {
		return nil
	}
	var req apiclient.AcknowledgeRequest
	if b, err := json.Marshal(body); err == nil {
		_ = json.Unmarshal(b, &req)
	}
	key := alertKey(params["groupId"], params["alertId"])
	now := h.now()
	h.mu.Lock()
	defer h.mu.Unlock()
	if act, ok := h.acting[key]; ok && act.who != a.Name {
		return fmt.Errorf("%s is %s this alert right now; try again when they are done", act.who, act.what)
	}
	if c, ok := h.acked[key]; ok && c.who != a.Name && now.Sub(c.at) < h.Window && !req.UnacknowledgeAlert {
		wk := a.Name + "|" + key
		if w, asked := h.warned[wk]; !asked || now.Sub(w.at) > h.ConfirmWithin {
			h.warned[wk] = warning{at: now}
			return fmt.Errorf("%s acknowledged this %s ago%s — acknowledge again? (repeat within %s to confirm)",
				c.who, ago(now.Sub(c.at)), untilText(c.until, h.clock()), ago(h.ConfirmWithin))
		}
		delete(h.warned, wk)
	}
	what := "acknowledging"
	if req.UnacknowledgeAlert {
		what = "unacknowledging"
	}
	h.acting[key] = acting{who: a.Name, what: what, at: now}
	go h.notify(false)
	return nil
}

// After is told what became of a write.
func (h *Hub) After(e apiclient.WriteEvent) {
	applied := e.Outcome == "applied" || e.Outcome == "verified: applied"
	if e.Op != "acknowledgeAlert" {
		if applied {
			h.notify(true) // the others' screens read it now, not at their next poll
		}
		return
	}
	key := alertKey(e.Params["groupId"], e.Params["alertId"])
	var req apiclient.AcknowledgeRequest
	_ = json.Unmarshal(e.Body, &req)
	h.mu.Lock()
	if act, ok := h.acting[key]; ok && act.who == e.Actor.Name {
		delete(h.acting, key)
	}
	// An unknown outcome counts as done: the second person is asked
	// rather than acknowledging blind.
	if e.Outcome == "applied" || e.Outcome == "unknown" || e.Outcome == "verified: applied" {
		if req.UnacknowledgeAlert {
			delete(h.acked, key)
		} else {
			h.acked[key] = claim{who: e.Actor.Name, at: h.now(), until: req.AcknowledgedUntil}
		}
	}
	h.mu.Unlock()
	h.notify(applied)
}

func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Minutes()))
	}
	return strings.TrimSuffix(d.Truncate(time.Minute).String(), "0s")
}

func untilText(until *time.Time, now time.Time) string {
	if until == nil {
		return ""
	}
	if until.Sub(now) > 50*365*24*time.Hour {
		return ", forever"
	}
	u := until.In(time.Local)
	if u.YearDay() == now.In(time.Local).YearDay() && u.Year() == now.Year() {
		return ", until " + u.Format("15:04")
	}
	return ", until " + u.Format("Jan 2 15:04")
}
