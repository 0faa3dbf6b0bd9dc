package settings

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/views"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// A deep or huge audit filter from the server goes through the bounded
// path: measured once when it is loaded (off the UI loop), never indented,
// and shown as one summary line with its size and depth, in the row and the
// detail; y still copies the whole filter. A filter within the limits is
// shown indented.
func TestDeepOrHugeAuditFilterIsSummarised(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 3000) + "1" + strings.Repeat("}", 3000)
	var huge strings.Builder
	huge.WriteString(`{"atype":{"$in":[`)
	for i := range 8000 {
		fmt.Fprintf(&huge, `"event-%05d",`, i)
	}
	huge.WriteString(`"last"]}}`)
	for _, tc := range []struct {
		name, filter, summary string
	}{
		{"deep", deep, "filter too large to show (18 KB, depth 3000)"},
		{"huge", huge.String(), "filter too large to show (110 KB, depth 3)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, size := range [][2]int{{80, 24}, {200, 60}} {
				layout := views.LayoutWide
				if size[0] < 100 {
					layout = views.LayoutNarrow
				}
				e := newEnv(t, "project-owner", layout, size[0], size[1])
				owner := e.Sim.ClientAs("project-owner", viewstest.NoGate)
				_, err := owner.Settings().UpdateAuditLog(context.Background(), apisim.DemoPaymentsID, apiclient.AuditLogUpdate{AuditFilter: &tc.filter})
				require.NoError(t, err)
				e.Run(e.P.Init())
				require.Equal(t, tc.filter, e.P.snap.Audit.AuditFilter)

				doc := e.P.snap.AuditDoc
				assert.True(t, doc.TooLarge)
				assert.Empty(t, doc.Pretty, "nothing indented")
				assert.Equal(t, len(tc.filter), doc.Stats.Scanned, "one pass over the filter")

				e.selectRow(rowFilter)
				screen := ansi.Strip(e.P.View())
				lines := strings.Split(screen, "\n")
				assert.LessOrEqual(t, len(lines), size[1])
				for _, l := range lines {
					assert.LessOrEqual(t, ansi.StringWidth(l), size[0])
				}
				text := strings.Join(strings.Fields(screen), " ")
				assert.Contains(t, text, tc.summary, "%dx%d", size[0], size[1])
				if size[0] >= 100 { // the detail has room for the whole line
					assert.Contains(t, text, tc.summary+"; y copies it, e opens it in $EDITOR")
				}
				assert.NotContains(t, screen, `"a": {`, "no part of the document indented")
				assert.Equal(t, tc.filter, e.P.Selected(), "y copies the whole filter")
			}
		})
	}

	t.Run("within the limits", func(t *testing.T) {
		e := newEnv(t, "project-owner", views.LayoutWide, 130, 40)
		e.selectRow(rowFilter)
		assert.False(t, e.P.snap.AuditDoc.TooLarge)
		assert.Contains(t, ansi.Strip(e.P.View()), `"$in": [`)
	})
}

// The pane matches ActionMsg.Name against its act… constants: each must
// name a registered action, or its key would silently do nothing.
func TestEveryActionConstantNamesARegisteredAction(t *testing.T) {
	assert.Empty(t, viewstest.UnregisteredActionConsts(t, Registration))
}

// Authorize and deauthorize are greyed, with the reason, until the cursor
// is on an access role; nothing is greyed once it is.
func TestRoleActionsGreyedOffARole(t *testing.T) {
	e := newEnv(t, "org-owner", views.LayoutWide, 120, 40)
	// disabled is the action's reason when greyed, "" when enabled; an
	// action the pane does not offer fails the test.
	disabled := func(name string) string {
		t.Helper()
		for _, a := range e.P.Actions() {
			if a.Name == name {
				if a.Enabled() {
					return ""
				}
				return a.DisabledReason
			}
		}
		t.Errorf("%s is not offered", name)
		return "<missing>"
	}
	e.selectRow(rowFilter)
	assert.Equal(t, "on an access role: select one (R)", disabled(actAuthorize))
	assert.Equal(t, "on an access role: select one (R)", disabled(actDeauthorize))
	assert.Empty(t, disabled(actAuditing))
	e.selectRow(e.roleRow(func(apiclient.AccessRole) bool { return true }))
	assert.Empty(t, disabled(actAuthorize))
	assert.Empty(t, disabled(actDeauthorize))
}
