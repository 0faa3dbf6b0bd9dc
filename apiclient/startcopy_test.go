package apiclient_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// copiesSim is an apisim behind a test server, counting the requests
// that reach it; copiesClient a client on it with the start copies of last
// (keeping the "alerts" source's reads).
func copiesSim(t *testing.T) (string, *apisim.RequestCounter) {
	s, err := apisim.New(apisim.Options{})
	require.NoError(t, err)
	n := new(apisim.RequestCounter)
	ts := httptest.NewServer(n.Wrap(s.Handler()))
	t.Cleanup(func() { ts.Close(); _ = s.Close() })
	return ts.URL, n
}

func copiesClient(t *testing.T, url string, last []apiclient.StartCopy, now func() time.Time) *apiclient.Client {
	c, err := apiclient.New(apiclient.Options{BaseURL: url, Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), MaxRetries: -1})
	require.NoError(t, err)
	c.UseStartCopies(apiclient.NewStartCopies(last, "alerts", time.Hour, now))
	return c
}

// TestStartCopiesAnswerTheNextStartsFirstReads: one start keeps the
// answers to its pane's reads (not another pane's, not a read-back); the
// next start's identical reads are answered from them once, marked with
// the copy's time, and nothing reaches the server; the second identical
// read, a read-back and an unkept read go to the server.
func TestStartCopiesAnswerTheNextStartsFirstReads(t *testing.T) {
	url, n := copiesSim(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	list := func(c *apiclient.Client, ctx context.Context) (*apiclient.Page[apiclient.Alert], time.Time, error) {
		ctx, mark := apiclient.WithCopyMark(ctx)
		pg, err := c.Alerts().List(ctx, apisim.DemoPaymentsID, apiclient.AlertListOptions{ListOptions: apiclient.ListOptions{ItemsPerPage: 5}})
		return pg, mark.At(), err
	}

	// The first start: no copies; it keeps the alerts pane's reads.
	first := copiesClient(t, url, nil, nil)
	pane := apiclient.WithSource(ctx, "alerts")
	want, at, err := list(first, pane)
	require.NoError(t, err)
	assert.True(t, at.IsZero(), "the server answered")
	_, err = first.Clusters().List(apiclient.WithSource(ctx, "clusters"), apisim.DemoPaymentsID, apiclient.ClusterListOptions{})
	require.NoError(t, err)
	kept := first.StartCopies().Kept()
	require.Len(t, kept, 1, "the alerts pane's read only, not the clusters pane's")
	assert.Contains(t, kept[0].Key, "/groups/"+apisim.DemoPaymentsID+"/alerts?")

	// The next start: the same read is answered from the copy, once.
	second := copiesClient(t, url, kept, nil)
	before := n.Sent.Load()
	got, at, err := list(second, pane)
	require.NoError(t, err)
	assert.Equal(t, n.Sent.Load(), before, "nothing reached the server")
	assert.Equal(t, kept[0].At, at, "the read is marked with the copy's time")
	require.NotNil(t, got)
	assert.Equal(t, want.Results, got.Results)
	assert.Equal(t, 1, second.StartCopies().Given())
	_, at, err = list(second, pane)
	require.NoError(t, err)
	assert.True(t, at.IsZero(), "a copy is given once: the second read asks the server")
	assert.Greater(t, n.Sent.Load(), before)

	// A read-back always asks the server.
	third := copiesClient(t, url, kept, nil)
	_, at, err = list(third, apiclient.WithRetries(pane, 1))
	require.NoError(t, err)
	assert.True(t, at.IsZero(), "a read-back is not answered from a copy")

	// Copies older than the age allowed, or unreadable, are not given.
	old := append([]apiclient.StartCopy(nil), kept...)
	old[0].At = time.Now().Add(-2 * time.Hour)
	fourth := copiesClient(t, url, old, nil)
	_, at, err = list(fourth, pane)
	require.NoError(t, err)
	assert.True(t, at.IsZero(), "a copy older than maxAge is dropped")
	bad := append([]apiclient.StartCopy(nil), kept...)
	bad[0].Data = []byte(`{"results": "not a list"}`)
	fifth := copiesClient(t, url, bad, nil)
	got, at, err = list(fifth, pane)
	require.NoError(t, err, "a copy that does not decode is passed over")
	assert.True(t, at.IsZero())
	assert.Equal(t, want.Results, got.Results)
}

// TestStartCopiesKeepWithinTheirBudget: the copies stop growing at their
// size, and a read already kept takes its newer answer.
func TestStartCopiesKeepWithinTheirBudget(t *testing.T) {
	url, _ := copiesSim(t)
	now := time.Now()
	c := copiesClient(t, url, nil, func() time.Time { return now })
	ctx := apiclient.WithSource(context.Background(), "alerts")
	for page := 1; page <= 40; page++ {
		_, err := c.Alerts().List(ctx, apisim.DemoPaymentsID, apiclient.AlertListOptions{ListOptions: apiclient.ListOptions{PageNum: page, ItemsPerPage: 500}})
		require.NoError(t, err)
	}
	total := 0
	for _, k := range c.StartCopies().Kept() {
		total += len(k.Data)
	}
	assert.LessOrEqual(t, total, apiclient.StartCopiesMaxBytes)
	assert.NotEmpty(t, c.StartCopies().Kept())

	first := c.StartCopies().Kept()[0]
	now = now.Add(10 * time.Second)
	_, err := c.Alerts().List(ctx, apisim.DemoPaymentsID, apiclient.AlertListOptions{ListOptions: apiclient.ListOptions{PageNum: 1, ItemsPerPage: 500}})
	require.NoError(t, err)
	again := c.StartCopies().Kept()[0]
	assert.Equal(t, first.Key, again.Key)
	assert.True(t, again.At.After(first.At), "the newer answer is kept")
	assert.True(t, strings.HasPrefix(string(again.Data), "{"))

	// After the window, a new read is not kept.
	now = now.Add(apiclient.StartCopiesWindow)
	n := len(c.StartCopies().Kept())
	_, err = c.Alerts().List(ctx, apisim.DemoPaymentsID, apiclient.AlertListOptions{ListOptions: apiclient.ListOptions{PageNum: 1, ItemsPerPage: 7}})
	require.NoError(t, err)
	assert.Len(t, c.StartCopies().Kept(), n)
}

// TestStartCopiesStopOnceTheServiceAnswers: once the service has answered
// one of the source's reads, no copy is given any more (a refresh of the
// same URL must not take an answer older than the screen), while other
// sources' reads do not end the giving.
func TestStartCopiesStopOnceTheServiceAnswers(t *testing.T) {
	url, _ := copiesSim(t)
	ctx := context.Background()
	pane := apiclient.WithSource(ctx, "alerts")
	page := func(c *apiclient.Client, ctx context.Context, size int) time.Time {
		ctx, mark := apiclient.WithCopyMark(ctx)
		_, err := c.Alerts().List(ctx, apisim.DemoPaymentsID, apiclient.AlertListOptions{ListOptions: apiclient.ListOptions{ItemsPerPage: size}})
		require.NoError(t, err)
		return mark.At()
	}
	first := copiesClient(t, url, nil, nil)
	page(first, pane, 5)
	page(first, pane, 7)
	kept := first.StartCopies().Kept()
	require.Len(t, kept, 2)

	second := copiesClient(t, url, kept, nil)
	_, err := second.Clusters().List(apiclient.WithSource(ctx, "clusters"), apisim.DemoPaymentsID, apiclient.ClusterListOptions{})
	require.NoError(t, err)
	assert.False(t, page(second, pane, 5).IsZero(), "another pane's read does not end the giving")
	assert.True(t, page(second, pane, 9).IsZero(), "a read with no copy goes to the service")
	assert.True(t, page(second, pane, 7).IsZero(), "after the service answered the pane, its copies are not given")
	assert.Equal(t, 1, second.StartCopies().Given())
}

// TestStartCopiesStopAtAWrite: a write ends the giving, whatever pane made
// it: the reads that check what it did must ask the service.
func TestStartCopiesStopAtAWrite(t *testing.T) {
	url, _ := copiesSim(t)
	ctx := context.Background()
	pane := apiclient.WithSource(ctx, "alerts")
	first := copiesClient(t, url, nil, nil)
	pg, err := first.Alerts().List(pane, apisim.DemoPaymentsID, apiclient.AlertListOptions{ListOptions: apiclient.ListOptions{ItemsPerPage: 5}})
	require.NoError(t, err)
	require.NotEmpty(t, pg.Results)

	second := copiesClient(t, url, first.StartCopies().Kept(), nil)
	until := time.Now().Add(time.Hour)
	_, err = second.Alerts().Acknowledge(apiclient.WithSource(ctx, "triage"), apisim.DemoPaymentsID, pg.Results[0].ID, apiclient.AcknowledgeRequest{AcknowledgedUntil: &until, AcknowledgementComment: "copies"})
	require.NoError(t, err)
	mctx, mark := apiclient.WithCopyMark(pane)
	got, err := second.Alerts().List(mctx, apisim.DemoPaymentsID, apiclient.AlertListOptions{ListOptions: apiclient.ListOptions{ItemsPerPage: 5}})
	require.NoError(t, err)
	assert.True(t, mark.At().IsZero(), "after a write, the read asks the service")
	assert.Zero(t, second.StartCopies().Given())
	for _, a := range got.Results {
		if a.ID == pg.Results[0].ID {
			assert.Equal(t, "copies", a.AcknowledgementComment, "the read shows the write")
		}
	}
}
