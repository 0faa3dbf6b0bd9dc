package serve

import (
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
)

func ackOp(t *testing.T) catalog.Op {
	op, ok := catalog.Get("acknowledgeAlert")
	require.True(t, ok)
	return op
}

// TestHubOneOfARaceGoes: twenty people acknowledging one alert at the same
// moment: one goes; the others are told who is on it.
func TestHubOneOfARaceGoes(t *testing.T) {
	h := NewHub()
	op := ackOp(t)
	params := map[string]string{"groupId": "g", "alertId": "a1"}
	var went atomic.Int64
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if h.Before(apiclient.Actor{Name: string(rune('a' + i))}, op, params, apiclient.AcknowledgeRequest{}) == nil {
				went.Add(1)
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, int64(1), went.Load())
}

// TestHubAsksThenLetsARepeatGo: after alice acknowledged, bob is asked with
// who, how long ago and until when; his repeat within ConfirmWithin goes,
// one after it is asked again. Alice herself is never asked.
func TestHubAsksThenLetsARepeatGo(t *testing.T) {
	h := NewHub()
	now := time.Date(2026, 11, 27, 8, 0, 0, 0, time.Local)
	h.now = func() time.Time { return now }
	h.SetClock(h.now)
	op := ackOp(t)
	params := map[string]string{"groupId": "g", "alertId": "a1"}
	until := time.Date(2026, 11, 27, 9, 0, 0, 0, time.Local)
	req := apiclient.AcknowledgeRequest{AcknowledgedUntil: &until}
	alice, bob := apiclient.Actor{Name: "alice"}, apiclient.Actor{Name: "bob"}
	require.NoError(t, h.Before(alice, op, params, req))
	assert.Equal(t, "alice: acknowledging", h.Acting("bob", "g", "a1"))
	assert.Equal(t, "", h.Acting("alice", "g", "a1"))
	body, _ := json.Marshal(req)
	h.After(apiclient.WriteEvent{Actor: alice, Op: op.ID, Params: params, Body: body, Outcome: "applied"})
	assert.Equal(t, "", h.Acting("bob", "g", "a1"))

	now = now.Add(40 * time.Second)
	err := h.Before(bob, op, params, req)
	require.EqualError(t, err, "alice acknowledged this 40 s ago, until 09:00 — acknowledge again? (repeat within 30 s to confirm)")
	now = now.Add(10 * time.Second)
	require.NoError(t, h.Before(bob, op, params, req), "the repeat is the answer")
	h.After(apiclient.WriteEvent{Actor: bob, Op: op.ID, Params: params, Body: body, Outcome: "applied"})
	require.NoError(t, h.Before(bob, op, params, req), "bob acknowledged last: not asked")
	h.After(apiclient.WriteEvent{Actor: bob, Op: op.ID, Params: params, Body: body, Outcome: "refused"})

	now = now.Add(time.Minute)
	require.Error(t, h.Before(alice, op, params, req), "alice is asked about bob's")
	now = now.Add(time.Minute)
	require.Error(t, h.Before(alice, op, params, req), "a repeat after ConfirmWithin is asked again")
	now = now.Add(10 * time.Minute)
	require.NoError(t, h.Before(alice, op, params, req), "past the window: nobody's")
	other := map[string]string{"groupId": "g", "alertId": "a2"}
	require.NoError(t, h.Before(bob, op, other, req), "another alert")
}

// TestHubMarksAnOpenDialog: from the moment alice opens her dialog on an
// alert, the others' rows say so (not hers); closing it (sent or
// cancelled) clears it, and so does her session ending. A mark blocks
// nobody, and one left open expires after MarkFor.
func TestHubMarksAnOpenDialog(t *testing.T) {
	h := NewHub()
	now := time.Date(2026, 11, 27, 8, 0, 0, 0, time.Local)
	h.now = func() time.Time { return now }
	h.MarkFor = 0 // expiry by the clock, checked below; no timers
	var told atomic.Int64
	h.changed = func(bool) { told.Add(1) }
	alice := &Session{ID: 1, Member: &Member{Name: "alice"}}
	bob := &Session{ID: 2, Member: &Member{Name: "bob"}}
	h.add(alice)
	h.add(bob)
	refs := []AlertRef{{GroupID: "g", AlertID: "a1"}, {GroupID: "h", AlertID: "a2"}}

	before := told.Load()
	h.Mark(alice.ID, "alice", "acknowledging", refs)
	assert.Greater(t, told.Load(), before, "the others are told")
	assert.Equal(t, "alice: acknowledging", h.Acting("bob", "g", "a1"))
	assert.Equal(t, "alice: acknowledging", h.Acting("bob", "h", "a2"))
	assert.Equal(t, "", h.Acting("bob", "g", "a2"), "another project's a2")
	assert.Equal(t, "", h.Acting("alice", "g", "a1"), "not on her own screen")
	require.NoError(t, h.Before(apiclient.Actor{Name: "bob"}, ackOp(t), map[string]string{"groupId": "g", "alertId": "a1"},
		apiclient.AcknowledgeRequest{}), "an open dialog blocks nobody")
	h.After(apiclient.WriteEvent{Actor: apiclient.Actor{Name: "bob"}, Op: "acknowledgeAlert",
		Params: map[string]string{"groupId": "g", "alertId": "a1"}, Body: []byte("{}"), Outcome: "refused"})

	// Cancelled (esc): gone.
	before = told.Load()
	h.Mark(alice.ID, "alice", "", nil)
	assert.Greater(t, told.Load(), before)
	assert.Equal(t, "", h.Acting("bob", "g", "a1"))
	before = told.Load()
	h.Mark(alice.ID, "alice", "", nil)
	assert.Equal(t, before, told.Load(), "nothing to clear: nobody is told")

	// Her session ends mid-dialog: gone, though another alice is here.
	alice2 := &Session{ID: 3, Member: &Member{Name: "alice"}}
	h.add(alice2)
	h.Mark(alice.ID, "alice", "unacknowledging", refs[:1])
	assert.Equal(t, "alice: unacknowledging", h.Acting("bob", "g", "a1"))
	h.remove(alice)
	assert.Equal(t, "", h.Acting("bob", "g", "a1"))

	// Left open: it lasts MarkFor.
	h.MarkFor = 2 * time.Minute
	h.Mark(alice2.ID, "alice", "acknowledging", refs[:1])
	h.Mark(bob.ID, "bob", "acknowledging", refs[:1])
	now = now.Add(time.Minute)
	assert.Equal(t, "alice: acknowledging", h.Acting("carol", "g", "a1"), "the first to open it")
	assert.Equal(t, "bob: acknowledging", h.Acting("alice", "g", "a1"))
	now = now.Add(time.Minute)
	assert.Equal(t, "", h.Acting("carol", "g", "a1"), "expired")
}

// TestHubMarkExpiryRedraws: a mark left open past MarkFor goes by itself
// and the others are told, so their rows drop it without a key.
func TestHubMarkExpiryRedraws(t *testing.T) {
	h := NewHub()
	h.MarkFor = 30 * time.Millisecond
	told := make(chan struct{}, 8)
	h.changed = func(bool) { told <- struct{}{} }
	h.Mark(1, "alice", "acknowledging", []AlertRef{{GroupID: "g", AlertID: "a1"}})
	<-told // the mark itself
	select {
	case <-told:
	case <-time.After(5 * time.Second):
		t.Fatal("nobody was told the mark expired")
	}
	h.mu.Lock()
	n := len(h.marks)
	h.mu.Unlock()
	assert.Equal(t, 0, n)
	assert.Equal(t, "", h.Acting("bob", "g", "a1"))
}
