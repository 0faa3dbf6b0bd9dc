package apiclient_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

func alertsPage(n int) apiclient.Request {
	return apiclient.Request{Params: map[string]string{"groupId": apisim.DemoPaymentsID},
		List: &apiclient.ListOptions{PageNum: n, ItemsPerPage: 5}}
}

// TestAReadAheadAnswersTheFirstIdenticalReadOnce: a read sent ahead leaves
// at once; the first identical read takes its answer and sends nothing;
// the next identical read and a different one go to the server.
func TestAReadAheadAnswersTheFirstIdenticalReadOnce(t *testing.T) {
	url, n := copiesSim(t)
	c, err := apiclient.New(apiclient.Options{BaseURL: url, Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), MaxRetries: -1})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	c.ReadAhead("listAlerts", alertsPage(1))
	c.ReadAhead("listAlerts", alertsPage(1)) // already ahead: not sent twice
	assert.Equal(t, 1, apiclient.ReadsAhead(c))
	require.Eventually(t, func() bool { return n.Sent.Load() == 1 }, 10*time.Second, time.Millisecond, "sent before anyone asked")

	pg, _, err := apiclient.ListPage[apiclient.Alert](ctx, c, "listAlerts", alertsPage(1))
	require.NoError(t, err)
	require.Len(t, pg.Results, 5)
	assert.Equal(t, int64(1), n.Sent.Load(), "the first identical read took the answer")
	assert.Equal(t, 0, apiclient.ReadsAhead(c), "taken")

	again, _, err := apiclient.ListPage[apiclient.Alert](ctx, c, "listAlerts", alertsPage(1))
	require.NoError(t, err)
	assert.Equal(t, int64(2), n.Sent.Load(), "taken once: the next read goes to the server")
	assert.Equal(t, pg.Results[0].ID, again.Results[0].ID)

	_, _, err = apiclient.ListPage[apiclient.Alert](ctx, c, "listAlerts", alertsPage(2))
	require.NoError(t, err)
	assert.Equal(t, int64(3), n.Sent.Load(), "another page is not the read ahead")

	// What is sent ahead is put there at once, before it leaves: nothing
	// there is nothing sent.
	c.ReadAhead("acknowledgeAlert", apiclient.Request{Params: map[string]string{"groupId": apisim.DemoPaymentsID, "alertId": "x"}})
	assert.Equal(t, 0, apiclient.ReadsAhead(c), "a write is never sent ahead")
	shared, err := apiclient.New(apiclient.Options{BaseURL: url, Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), MaxRetries: -1})
	require.NoError(t, err)
	shared.ShareReads(apiclient.NewReadShare(time.Minute))
	shared.ReadAhead("listAlerts", alertsPage(3))
	assert.Equal(t, 0, apiclient.ReadsAhead(shared), "nor a read of a client that shares its reads (serve)")
	assert.Equal(t, int64(3), n.Sent.Load())
}

// TestAReadAheadThatGotNoAnswerIsAskedAgain: a read ahead whose connection
// broke is not taken: the identical read sends its own and gets the
// answer.
func TestAReadAheadThatGotNoAnswerIsAskedAgain(t *testing.T) {
	var hits atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 1 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				_ = conn.Close() // no answer at all
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"results":[{"id":"a1","status":"OPEN"}],"totalCount":1}`))
	}))
	t.Cleanup(ts.Close)
	c, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, MaxRetries: -1})
	require.NoError(t, err)
	c.ReadAhead("listAlerts", alertsPage(1))
	require.Eventually(t, func() bool { return hits.Load() == 1 }, 10*time.Second, time.Millisecond)
	pg, _, err := apiclient.ListPage[apiclient.Alert](context.Background(), c, "listAlerts", alertsPage(1))
	require.NoError(t, err, "the read asked again")
	assert.Equal(t, "a1", pg.Results[0].ID)
	assert.Equal(t, int64(2), hits.Load())
}
