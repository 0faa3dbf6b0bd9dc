package accesslogs

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// viewState is everything a key of the pane may change in the view of a
// log: what the tester saw changed out of sight.
type viewState struct {
	since                time.Duration
	following, wrap, raw bool
	loc                  string
	failures             bool
	ip, user, search     string
	hostList             bool
}

func stateOf(p *Pane) viewState {
	return viewState{since: p.since, following: p.following, wrap: p.st.lv.Wrapping(), raw: p.st.format.raw,
		loc: p.st.format.loc.String(), failures: p.st.filter.failuresOnly, ip: p.st.filter.ip, user: p.st.filter.user,
		search: p.search, hostList: p.hostList != nil}
}

// On the cluster list no log is open: every key but G (the list's last
// row) is greyed with the reason, so help greys it, the footer leaves it
// out and the root answers it; delivered anyway, the pane refuses it with
// the same reason and changes nothing a cluster opened later would show.
func TestClusterListRefusesTheLogKeys(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "", 120, 14)
	k := keysOf(e.Ctx.Keys)
	require.True(t, e.P.choosing())
	for _, a := range e.P.Actions() {
		if a.Name == k.End.Name {
			assert.True(t, a.Enabled(), "G goes to the list's last row")
			assert.Empty(t, a.DisabledReason)
			continue
		}
		assert.False(t, a.Enabled(), "%s is greyed on the cluster list", a.Name)
		assert.Equal(t, "pick a cluster first (enter on the list, or @)", a.DisabledReason, a.Name)
	}

	before := stateOf(e.P)
	for _, a := range []keymap.Action{k.Since, k.Wrap, k.Timezone, k.FailuresOnly, k.Follow, k.Raw, k.IPFilter,
		k.UserFilter, k.Search, k.NextMatch, k.PrevMatch, k.Save, k.Hosts} {
		e.Toasts = nil
		e.action(a)
		require.Len(t, e.Toasts, 1, "%s answers", a.Name)
		assert.True(t, e.Toasts[0].Err, a.Name)
		assert.Equal(t, a.Help().Desc+": pick a cluster first (enter on the list, or @)", e.Toasts[0].Text)
		assert.Empty(t, e.Confirms, "%s asks nothing", a.Name)
		assert.Equal(t, before, stateOf(e.P), "%s changed nothing", a.Name)
	}
	assert.Contains(t, screen(e), "access logs are per cluster", "still the list")

	// Picking a cluster clears the refusals and opens it as it would have
	// opened without those keys.
	for e.P.clusters[e.P.clusterCursor].name != "payments-rs" {
		e.Press("down")
	}
	e.Press("enter")
	assert.Positive(t, e.Resolved, "the pick-a-cluster-first errors go with their cause")
	scr := screen(e)
	assert.Contains(t, scr, "Access log · cluster payments-rs · since 15m")
	assert.Contains(t, scr, "following | wrap off | UTC")
	assert.NotContains(t, scr, "failures only")
	for _, a := range e.P.Actions() {
		assert.True(t, a.Enabled(), "%s works on an open log", a.Name)
	}
}

// With no project there is no log either: every key is greyed and refused.
func TestNoProjectRefusesEveryKey(t *testing.T) {
	e := newEnv(t, "monitoring-admin", "", "", 120, 14)
	for _, a := range e.P.Actions() {
		assert.False(t, a.Enabled(), a.Name)
		assert.Equal(t, "no project selected (press @ or :project)", a.DisabledReason, a.Name)
	}
	before := stateOf(e.P)
	e.action(keysOf(e.Ctx.Keys).Wrap)
	e.action(keysOf(e.Ctx.Keys).End)
	assert.Equal(t, before, stateOf(e.P))
	require.Len(t, e.Toasts, 2)
	assert.Equal(t, "wrap: no project selected (press @ or :project)", e.Toasts[0].Text)
}

// The keys the host list cannot take (raw, user filter, since) are greyed
// with the way out while it is open, and say so when delivered, rather
// than do nothing silently.
func TestHostListRefusesWhatItCannotTake(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 120, 14)
	k := keysOf(e.Ctx.Keys)
	e.action(k.Hosts)
	require.NotNil(t, e.P.hostList)
	before := stateOf(e.P)
	for _, a := range []keymap.Action{k.Raw, k.UserFilter, k.Since} {
		assert.Equal(t, "close the host list first (esc)", viewstest.Offered(t, e.P, a.Name).DisabledReason)
		e.Toasts = nil
		e.action(a)
		require.Len(t, e.Toasts, 1, a.Name)
		assert.Equal(t, a.Help().Desc+": close the host list first (esc)", e.Toasts[0].Text)
		assert.Empty(t, e.Confirms)
	}
	assert.Equal(t, before, stateOf(e.P))
	assert.True(t, viewstest.Offered(t, e.P, k.Hosts.Name).Enabled(), "h closes the list")
	e.Press("esc")
	assert.True(t, viewstest.Offered(t, e.P, k.Raw.Name).Enabled())
}

// The tester's case: a cluster viewed, esc back to the list. Its records
// go with it: s on the list writes nothing (not the last cluster's records
// under a name with no cluster), even called past the root's refusal.
func TestListHoldsNoRecordsOfTheClusterLeft(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "", 120, 14)
	exportDir(t, e)
	for e.P.clusters[e.P.clusterCursor].name != "payments-rs" {
		e.Press("down")
	}
	e.Press("enter")
	require.Positive(t, e.P.st.lv.Len())
	e.Press("esc")
	require.True(t, e.P.choosing())
	assert.Zero(t, e.P.st.recs.Len(), "the records of the cluster left are dropped")
	assert.Zero(t, e.P.st.lv.Len())

	e.Toasts = nil
	e.Run(e.P.askSave(keysOf(e.Ctx.Keys).Save.Name))
	assert.Empty(t, e.Confirms, "no dialog offers records")
	require.Len(t, e.Toasts, 1)
	assert.Equal(t, "nothing to save: no access log is open", e.Toasts[0].Text)
	files, _ := os.ReadDir(e.P.Ctx.ExportDir)
	assert.Empty(t, files)
}

// The dialog names the cluster and counts the records; enter writes
// exactly those, under a name naming that cluster, though more records
// arrived while it was open.
func TestSaveWritesWhatTheDialogCounted(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 120, 14)
	dir := exportDir(t, e)
	e.action(keysOf(e.Ctx.Keys).Save)
	c := e.LastConfirm()
	n := e.P.st.lv.Len()
	assert.Contains(t, c.Body, "Write the "+strconv.Itoa(n)+" shown records of payments-rs ")
	assert.Contains(t, c.Body, "accesslogs-payments-rs-")
	e.advance(time.Minute)
	require.Greater(t, e.P.st.lv.Len(), n, "records arrived while the dialog was open")
	e.confirm("")
	last := e.Toasts[len(e.Toasts)-1]
	require.False(t, last.Err, last.Text)
	assert.Contains(t, last.Text, "saved "+strconv.Itoa(n)+" records to "+filepath.Join(dir, "accesslogs-payments-rs-"))
	assert.Equal(t, n, savedRecords(t, dir))
}

// A confirmation answered after the log on screen changed (another
// cluster through the context, or the dialog gone and a key pressed)
// writes nothing and says so.
func TestSaveRefusedOnceTheLogChanged(t *testing.T) {
	e := newEnv(t, "monitoring-admin", apisim.DemoPaymentsID, "payments-rs", 120, 14)
	dir := exportDir(t, e)
	save := keysOf(e.Ctx.Keys).Save

	e.action(save)
	e.LastConfirm()
	ctx := e.P.Ctx
	ctx.ClusterName = "payments-prod"
	e.Send(views.ContextChangedMsg{Ctx: ctx})
	e.advance(time.Second)
	require.Positive(t, e.P.st.lv.Len(), "payments-prod is shown")
	e.confirm("")
	last := e.Toasts[len(e.Toasts)-1]
	assert.True(t, last.Err)
	assert.Equal(t, "nothing saved: the access log on screen changed since the save was asked (s asks again)", last.Text)
	files, _ := os.ReadDir(dir)
	assert.Empty(t, files, "neither payments-rs's records nor payments-prod's")

	// The dialog cancelled (a key reaches the pane): its answer, should one
	// come, writes nothing, and the records it held are let go.
	e.action(save)
	stale := e.LastConfirm()
	e.Press("k")
	assert.Nil(t, e.P.pending)
	a := stale.Action
	a.Confirmed = true
	e.Send(a)
	assert.Contains(t, e.Toasts[len(e.Toasts)-1].Text, "nothing saved")
	files, _ = os.ReadDir(dir)
	assert.Empty(t, files)
}

// exportDir points the pane's exports at a new directory.
func exportDir(t *testing.T, e *env) string {
	e.P.Ctx.ExportDir = t.TempDir()
	return e.P.Ctx.ExportDir
}

// savedRecords counts the JSON lines of the one file in dir.
func savedRecords(t *testing.T, dir string) int {
	t.Helper()
	files, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, files, 1)
	b, err := os.ReadFile(filepath.Join(dir, files[0].Name()))
	require.NoError(t, err)
	return strings.Count(string(b), "\n")
}
