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
