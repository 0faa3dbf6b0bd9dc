package settings_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/views/settings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/ui"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// rootOnSim runs the whole dashboard, settings pane first, against apisim
// as identity, and records every mutating request that reaches the server.
func rootOnSim(t *testing.T, identity string, readOnly bool) (*teatest.TestModel, func() []string) {
	t.Helper()
	sim := viewstest.NewSim(t, viewstest.SimOptions{Identity: identity, Gate: viewstest.GateUnknownRoles})
	m, err := ui.New(ui.Options{Client: sim.Client, Project: "payments", Pane: settings.ID, ReadOnly: readOnly, Theme: "mono", NoColor: true})
	require.NoError(t, err)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(130, 36))
	t.Cleanup(func() { _ = tm.Quit() })
	return tm, sim.Writes
}

func waitFor(t *testing.T, tm *teatest.TestModel, text string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(text)) },
		teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}

func keys(tm *teatest.TestModel, ks ...string) {
	for _, k := range ks {
		switch k {
		case "enter":
			tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
		case "down":
			tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
		case "G", "k", "y":
			tm.Send(tea.KeyPressMsg{Code: []rune(strings.ToLower(k))[0], Text: k})
		default:
			tm.Send(tea.KeyPressMsg{Code: []rune(k)[0], Text: k})
		}
	}
}

// finalScreen quits and returns the last frame, without escapes.
func finalScreen(t *testing.T, tm *teatest.TestModel) string {
	t.Helper()
	require.NoError(t, tm.Quit())
	return ansi.Strip(tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View().Content)
}

// Each change key, pressed in read-only mode or by the Project Read Only
// identity, is refused on screen with the reason (the role it needs) and
// nothing reaches the server; enter and y on every row change nothing either.
func TestEveryChangeIsRefusedOnScreenWithoutTheRight(t *testing.T) {
	for _, tc := range []struct {
		name, identity string
		readOnly       bool
		reason         string
	}{
		{name: "read-only mode", identity: "project-owner", readOnly: true, reason: ": read-only mode"},
		{name: "read-only identity", identity: "read-only", reason: " needs Project Owner"},
	} {
		for key, desc := range map[string]string{
			"a": "auditing on/off", "e": "edit audit filter", "d": "custom DNS on/off",
			"n": "new access role", "z": "authorize role", "x": "deauthorize role",
		} {
			t.Run(tc.name+"/"+key, func(t *testing.T) {
				tm, writes := rootOnSim(t, tc.identity, tc.readOnly)
				waitFor(t, tm, "ROLES (4)")
				// On a role row, so z and x have a target.
				keys(tm, "G", "k", key)
				waitFor(t, tm, desc)
				screen := finalScreen(t, tm)
				assert.Contains(t, screen, desc+tc.reason)
				assert.Empty(t, writes())
			})
		}
		t.Run(tc.name+"/enter everywhere", func(t *testing.T) {
			tm, writes := rootOnSim(t, tc.identity, tc.readOnly)
			waitFor(t, tm, "ROLES (4)")
			for range 9 {
				keys(tm, "enter", "y", "enter", "down")
			}
			keys(tm, "r")
			waitFor(t, tm, "refreshing settings")
			finalScreen(t, tm)
			assert.Empty(t, writes())
		})
	}
}

// The control: the same root with the owner in read-write mode does send,
// so the empty logs above mean something.
func TestOwnerChangeReachesTheServer(t *testing.T) {
	tm, writes := rootOnSim(t, "project-owner", false)
	waitFor(t, tm, "ROLES (4)")
	keys(tm, "d")
	waitFor(t, tm, "Turn custom DNS for AWS off?")
	keys(tm, "y")
	waitFor(t, tm, "turned off")
	screen := finalScreen(t, tm)
	assert.Contains(t, screen, "custom DNS for AWS turned off")
	assert.Equal(t, []string{"PATCH /api/atlas/v2/groups/" + apisim.DemoPaymentsID + "/awsCustomDNS"}, writes())
}
