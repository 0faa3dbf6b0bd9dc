package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/icholy/digest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/journal"
	"github.com/dbadmin-tui/dbadmin-tui/serve"
	"github.com/dbadmin-tui/dbadmin-tui/ui"
)

// demoServeApp is `serve --demo` without the SSH server: the simulator,
// the demo team, the journal, the hub.
func demoServeApp(t *testing.T) *serveApp {
	t.Helper()
	dir := t.TempDir()
	f, err := parseServeFlags([]string{"--demo"})
	require.NoError(t, err)
	env := map[string]string{"XDG_STATE_HOME": dir, "XDG_CONFIG_HOME": dir, "HOME": dir}
	a := &serveApp{f: f, getenv: func(k string) string { return env[k] }, panes: ui.Panes(),
		ids: map[string]*identity{}, log: discardLog()}
	t.Cleanup(func() {
		for i := len(a.closeAll) - 1; i >= 0; i-- {
			a.closeAll[i]()
		}
	})
	require.NoError(t, a.start())
	a.hub = serve.NewHub()
	return a
}

func simWrites(t *testing.T, base string) []string {
	t.Helper()
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &digest.Transport{Username: "org-owner", Password: "org-owner-secret"}}
	res, err := hc.Get(base + "/api/atlas/sim/requests")
	require.NoError(t, err)
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	var log struct {
		Requests []apisim.RequestRecord `json:"requests"`
	}
	require.NoError(t, json.Unmarshal(body, &log))
	var out []string
	for _, r := range log.Requests {
		if r.Method != http.MethodGet && strings.HasPrefix(r.Path, "/api/atlas/v2/") && r.Identity != "" {
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out
}

// TestServeReadOnlyMemberRefusedInItsClient: a read-only member's write is
// refused by the client the session calls, even with the gate's read-only
// flag lifted (as a screen might): nothing reaches the server, and the
// refusal is journaled with who. A member who may write, on the same
// profile's shared client, writes.
func TestServeReadOnlyMemberRefusedInItsClient(t *testing.T) {
	a := demoServeApp(t)
	ctx := context.Background()
	lead := &serve.Session{ID: 1, Member: &serve.Member{Name: "lead", Profile: "org-owner", ReadOnly: true}, Fingerprint: "SHA256:lead"}
	opts, err := a.sessionOptions(lead)
	require.NoError(t, err)
	assert.True(t, opts.ReadOnly, "greyed on screen too")
	c := opts.Client
	c.Gate().SetReadOnly(false)
	open, err := c.Alerts().List(ctx, apisim.DemoPaymentsID, apiclient.AlertListOptions{Status: apiclient.AlertOpen})
	require.NoError(t, err)
	require.NotEmpty(t, open.Results)
	id := open.Results[0].ID
	until := time.Now().Add(time.Hour).UTC().Truncate(time.Second)
	_, err = c.Alerts().Acknowledge(ctx, apisim.DemoPaymentsID, id, apiclient.AcknowledgeRequest{AcknowledgedUntil: &until})
	var denied *apiclient.DeniedError
	require.ErrorAs(t, err, &denied)
	assert.Contains(t, err.Error(), "lead is read-only on this server")
	assert.Empty(t, simWrites(t, a.simBase))

	alice := &serve.Session{ID: 2, Member: &serve.Member{Name: "alice", Profile: "org-owner"}, Fingerprint: "SHA256:alice"}
	aopts, err := a.sessionOptions(alice)
	require.NoError(t, err)
	_, err = aopts.Client.Alerts().Acknowledge(ctx, apisim.DemoPaymentsID, id, apiclient.AcknowledgeRequest{AcknowledgedUntil: &until})
	require.NoError(t, err)
	assert.Len(t, simWrites(t, a.simBase), 1)

	es, _, err := journal.Read(a.journal.Path(), time.Time{})
	require.NoError(t, err)
	require.Len(t, es, 2)
	assert.Equal(t, []string{"lead", "SHA256:lead", "not sent"}, []string{es[0].Who, es[0].Key, es[0].Outcome})
	assert.Equal(t, []string{"alice", "SHA256:alice", "applied"}, []string{es[1].Who, es[1].Key, es[1].Outcome})
}

func TestParseServeFlags(t *testing.T) {
	f, err := parseServeFlags(nil)
	require.NoError(t, err)
	assert.Equal(t, ":2222", f.listen)
	f, err = parseServeFlags([]string{"--demo"})
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1:2222", f.listen)
	_, err = parseServeFlags([]string{"--demo", "--listen", "0.0.0.0:2222"})
	require.ErrorContains(t, err, "not a loopback address")
	_, err = parseServeFlags([]string{"--idle", "-1s"})
	require.Error(t, err)
	_, err = parseServeFlags([]string{"--listen", "nope"})
	require.ErrorContains(t, err, "want HOST:PORT")
}

func discardLog() *slog.Logger { return slog.New(slog.DiscardHandler) }
