package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/ui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// goldenScreen compares the pane's view with testdata/settings/<name>.golden
// at the repository root (TestMain runs the tests from there); -update
// rewrites it.
func goldenScreen(t *testing.T, name, view string) {
	t.Helper()
	golden.RequireEqual(goldenName{t, "settings/" + name}, ansi.Strip(view))
}

// goldenName files a golden screen under the pane's name, not the test's.
type goldenName struct {
	testing.TB
	name string
}

func (g goldenName) Name() string { return g.name }

func TestMain(m *testing.M) {
	if err := os.Chdir(filepath.Join("..", "..")); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

func TestScreens(t *testing.T) {
	for _, tc := range []struct {
		name     string
		identity string
		layout   views.Layout
		w, h     int
		setup    func(e *env)
	}{
		{name: "wide", identity: "project-owner", layout: views.LayoutWide, w: 130, h: 24},
		{name: "compact", identity: "project-owner", layout: views.LayoutCompact, w: 100, h: 30},
		{name: "narrow", identity: "project-owner", layout: views.LayoutNarrow, w: 70, h: 24},
		{name: "role_selected", identity: "project-owner", layout: views.LayoutWide, w: 130, h: 24, setup: func(e *env) {
			e.selectRow(e.roleRow(func(r apiclient.AccessRole) bool { return r.ProviderName == "AWS" && len(r.FeatureUsage) > 0 }))
		}},
		{name: "read_only", identity: "read-only", layout: views.LayoutCompact, w: 100, h: 24},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.identity, tc.layout, tc.w, tc.h)
			if tc.setup != nil {
				tc.setup(e)
			}
			view := e.pane.View()
			for i, l := range strings.Split(ansi.Strip(view), "\n") {
				assert.LessOrEqual(t, ansi.StringWidth(l), tc.w, "line %d too wide", i)
			}
			assert.Equal(t, tc.h, strings.Count(view, "\n")+1, "height")
			goldenScreen(t, tc.name, view)
		})
	}
}

func TestReadOnlyIdentitySeesWhyAuditingIsMissing(t *testing.T) {
	e := newEnv(t, "read-only", views.LayoutWide, 130, 24)
	view := ansi.Strip(e.pane.View())
	assert.Contains(t, view, "not readable with your roles")
	assert.Contains(t, view, "Custom DNS", "the rest still loads")
	assert.Contains(t, view, "CLOUD PROVIDER ACCESS ROLES (4)")
}

func TestToggleCustomDNSAsksWithTheNoteThenSends(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.action(actCustomDNS)
	c := e.lastConfirm()
	assert.Equal(t, "Turn custom DNS for AWS off?", c.Title)
	assert.Empty(t, e.sent(), "asking sends nothing")

	e.answer("")
	assert.Equal(t, []string{"PATCH /api/atlas/v2/groups/" + e.pane.ctx.GroupID + "/awsCustomDNS"}, e.sent())
	_, dns, _ := e.settings()
	assert.False(t, dns.Enabled)
	assert.Contains(t, ansi.Strip(e.pane.View()), "custom DNS for AWS turned off")

	// And back on: the confirmation carries the private-IP note.
	e.action(actCustomDNS)
	assert.Contains(t, e.lastConfirm().Body, "private-IP connection strings")
	e.answer("")
	_, dns, _ = e.settings()
	assert.True(t, dns.Enabled)
}

func TestEnterOnASettingAsksLikeItsKey(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.selectRow(rowDNS)
	e.key("enter")
	assert.Equal(t, actCustomDNS, e.lastConfirm().Action.Name)
	e.selectRow(rowAuditing)
	e.key("enter")
	assert.Equal(t, "Turn auditing off?", e.lastConfirm().Title)
	assert.Empty(t, e.sent())
}

func TestSuccessfulAuthorizationsWarnBeforeSaving(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.selectRow(rowAuthSuccess)
	e.key("enter")
	c := e.lastConfirm()
	assert.Equal(t, "Record successful authorizations?", c.Title)
	assert.Contains(t, c.Body, "degrades cluster performance")
	assert.Equal(t, actAuditing, c.Action.Name, "gated as the auditing change")
	assert.Empty(t, e.sent(), "the warning comes before anything is saved")

	e.answer("")
	a, _, _ := e.settings()
	assert.True(t, a.AuditAuthorizationSuccess)
	assert.True(t, a.Enabled, "only the flag changed")

	// Turning auditing off and on again repeats the warning while it is on.
	e.action(actAuditing)
	e.answer("")
	e.action(actAuditing)
	assert.Equal(t, "Turn auditing on?", e.lastConfirm().Title)
	assert.Contains(t, e.lastConfirm().Body, "degrades cluster performance")
}

func TestAuditFilterSyntaxErrorReopensTheEditorWithTheText(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.action(actEditFilter)
	require.Equal(t, 1, e.execs, "the editor opened")

	bad := "// header\n// header\n// status\n{\n  \"atype\": \"authenticate\",\n  \"param\": {\"user\": }\n}\n"
	e.send(edited(editKey, "", bad))
	assert.Equal(t, 2, e.execs, "reopened")
	assert.Equal(t, "{\n  \"atype\": \"authenticate\",\n  \"param\": {\"user\": }\n}", e.pane.draft, "the text is kept, header dropped")
	assert.Contains(t, e.pane.draftErr, "line 3, column 21")
	assert.Empty(t, e.sent())

	// Saved unchanged on the reopened round: stop, keep the text, say where.
	e.send(edited(reopenKey, e.pane.draft, "// h\n// h\n// ✗ line 6\n"+e.pane.draft))
	assert.Equal(t, 2, e.execs, "not reopened again")
	assert.True(t, e.lastToast().Err)
	assert.Contains(t, e.lastToast().Text, "line 3, column 21")
	assert.Contains(t, e.lastToast().Text, "your text is kept")
	view := ansi.Strip(e.pane.View())
	assert.Contains(t, view, "unsaved draft")
	assert.Contains(t, view, `"param": {"user": }`)

	// e reopens it with the draft.
	e.action(actEditFilter)
	assert.Equal(t, 3, e.execs)
	assert.Empty(t, e.sent())
}

func TestAuditFilterSavedAfterConfirmation(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.action(actEditFilter)
	e.send(edited(editKey, "", "// h\n{\n  \"atype\": \"createCollection\"\n}\n"))
	c := e.lastConfirm()
	assert.Equal(t, "Save the audit filter?", c.Title)
	assert.Contains(t, c.Body, `{"atype":"createCollection"}`)
	assert.Empty(t, e.sent(), "nothing before yes")

	e.answer("")
	assert.Len(t, e.sent(), 1)
	a, _, _ := e.settings()
	assert.Equal(t, `{"atype":"createCollection"}`, a.AuditFilter)
	assert.Equal(t, apiclient.AuditFilterJSON, a.ConfigurationType)
	assert.Empty(t, e.pane.draft)
	assert.Contains(t, e.lastToast().Text, "audit filter saved")
}

func TestAuditFilterUnchangedOrEmptySendsNothing(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	cur := e.pane.snap.Audit.AuditFilter
	e.send(edited(editKey, "", pretty(cur)))
	assert.Contains(t, e.pane.notice, "unchanged")
	e.send(edited(editKey, "", "// only comments\n\n"))
	assert.Contains(t, e.lastToast().Text, "empty document")
	assert.Empty(t, e.confirms)
	assert.Empty(t, e.sent())
}

func TestRefusedFilterSaveKeepsTheText(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	// The server refuses what the client would: a filter that is not an
	// object never leaves, and the user's text stays as the draft.
	e.send(views.ActionMsg{Name: actEditFilter, Confirmed: true, Target: targetFilterPrefix + `["authenticate"]`})
	assert.Empty(t, e.sent())
	assert.Equal(t, `["authenticate"]`, e.pane.draft)
	assert.Contains(t, e.pane.draftErr, "auditFilter")
	assert.True(t, e.lastToast().Err)
}

// edited is the editor's answer on a round named key that opened opened
// and saved file.
func edited(key, opened, file string) views.EditedMsg {
	m := views.EditedFile(opened, file)
	m.Key = key
	return m
}

func TestEditorScript(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "editor.sh")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\ncat \"$1\" > \""+dir+"/seen\"\nprintf '%s\\n' '{\"atype\": \"dropDatabase\"}' >> \"$1\"\n"), 0o755))
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", script+" ")

	// The editor runs here and now instead of taking over the terminal.
	var path string
	round := (&Pane{ctx: views.Context{ProjectName: "payments"}}).editRound("{}", "Edit the filter below.", editKey)
	round.Run = func(p string, done func(error) tea.Msg) tea.Cmd {
		path = p
		return views.RunEditor(p, done)
	}
	answer, ok := round.Open()().(views.PaneMsg)
	require.True(t, ok)
	assert.Equal(t, views.Settings, answer.Pane)
	done, ok := answer.Msg.(views.EditedMsg)
	require.True(t, ok)
	require.NoError(t, done.Err)
	_, err := os.Stat(path)
	assert.True(t, os.IsNotExist(err), "the temporary file is removed")

	seen, err := os.ReadFile(filepath.Join(dir, "seen"))
	require.NoError(t, err)
	lines := strings.Split(string(seen), "\n")
	require.Len(t, lines, headerLines+2)
	assert.True(t, strings.HasPrefix(lines[0], "// Audit filter of project payments"))
	assert.Equal(t, "{}", lines[headerLines])
	assert.Equal(t, "{}\n{\"atype\": \"dropDatabase\"}", done.Text)
	assert.Equal(t, headerLines, done.HeaderLines)

	t.Setenv("EDITOR", "no-such-editor-anywhere")
	_, err = views.EditorCommand(path)
	assert.ErrorContains(t, err, "set EDITOR")
}

func TestAuthorizeChecksTheARNBeforeSending(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.selectRow(e.roleRow(func(r apiclient.AccessRole) bool { return r.ProviderName == "AWS" && r.AuthorizedDate == nil }))
	id := e.pane.Selected()
	e.action(actAuthorize)
	require.Len(t, e.forms, 1)
	f := e.forms[0]
	assert.Equal(t, id, f.Action.Target)
	require.Len(t, f.Fields, 1)
	assert.Contains(t, f.Fields[0].Hint, "arn:aws:iam::012345678901:root", "the account to trust")
	assert.Contains(t, f.Fields[0].Hint, "external id d671e286-sim-")

	for bad, why := range map[string]string{
		"arn:aws:iam::1234:role/atlas":   "12-digit account",
		"arn:aws:s3:::bucket":            "must start with arn:aws:iam::",
		"arn:aws:iam::123456789012:user": "12-digit account",
		"":                               "required",
	} {
		err := e.submit(components.FormValues{"arn": bad})
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), why, bad)
	}
	assert.Empty(t, e.sent(), "a bad ARN is never sent")
	// A value that slipped past the form is checked again, and the form told.
	e.send(views.ActionMsg{Name: actAuthorize, Confirmed: true, Target: id, Values: components.FormValues{"arn": "nope"}})
	require.Len(t, e.done, 1)
	assert.Error(t, e.done[0].Err)
	assert.Empty(t, e.sent())

	require.NoError(t, e.submit(components.FormValues{"arn": " arn:aws:iam::123456789012:role/atlas-payments-exports "}))
	assert.Len(t, e.sent(), 1)
	require.Len(t, e.done, 2)
	assert.NoError(t, e.done[1].Err, "the form closes")
	_, _, roles := e.settings()
	for _, r := range roles.AWSIAMRoles {
		if r.RoleID == id {
			require.NotNil(t, r.AuthorizedDate)
			assert.True(t, r.AuthorizedDate.Equal(e.clock.Now()))
			assert.Equal(t, "arn:aws:iam::123456789012:role/atlas-payments-exports", r.IAMAssumedRoleARN)
		}
	}
	assert.NotContains(t, ansi.Strip(e.pane.View()), "not authorized")
}

func TestAuthorizeNeedsARole(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.selectRow(rowDNS)
	e.action(actAuthorize)
	assert.Empty(t, e.confirms)
	assert.Contains(t, e.lastToast().Text, "select an access role")
	e.selectRow(e.roleRow(func(r apiclient.AccessRole) bool { return r.ProviderName == "GCP" }))
	e.action(actAuthorize)
	assert.Contains(t, e.lastToast().Text, "GCP service accounts need no authorization")
	assert.Empty(t, e.sent())
}

func TestDeauthorizeRefusedWhileAnExportBucketUsesTheRole(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.selectRow(e.roleRow(func(r apiclient.AccessRole) bool { return r.ProviderName == "AWS" && len(r.FeatureUsage) > 0 }))
	e.action(actDeauthorize)
	assert.Empty(t, e.confirms, "refused before asking")
	assert.Contains(t, e.lastToast().Text, "used by export bucket payments-exports")
	assert.Contains(t, e.lastToast().Text, "delete that bucket")
	assert.Contains(t, ansi.Strip(e.pane.View()), "payments-exports; delete that bucket")
	assert.Empty(t, e.sent())

	// An unused role: confirm (default No at the root), then removed.
	e.selectRow(e.roleRow(func(r apiclient.AccessRole) bool { return r.ProviderName == "AWS" && len(r.FeatureUsage) == 0 }))
	id := e.pane.Selected()
	e.action(actDeauthorize)
	assert.Equal(t, "Deauthorize access role?", e.lastConfirm().Title)
	assert.Empty(t, e.sent())
	e.answer("")
	assert.Equal(t, []string{"DELETE /api/atlas/v2/groups/" + e.pane.ctx.GroupID + "/cloudProviderAccess/AWS/" + id}, e.sent())
	_, _, roles := e.settings()
	assert.Len(t, roles.AWSIAMRoles, 1)
}

func TestDeauthorizeRefusalFromTheServerIsShown(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	// A stale screen: the pane thinks the role is unused, the server knows.
	row := e.roleRow(func(r apiclient.AccessRole) bool { return r.ProviderName == "AWS" && len(r.FeatureUsage) > 0 })
	e.pane.snap.Roles.AWSIAMRoles[0].FeatureUsage = nil
	e.send(views.ActionMsg{Name: actDeauthorize, Confirmed: true, Target: row})
	assert.Len(t, e.sent(), 1)
	assert.Contains(t, e.lastToast().Text, "CLOUD_PROVIDER_ACCESS_ROLE_IN_USE")
	_, _, roles := e.settings()
	assert.Len(t, roles.AWSIAMRoles, 2, "still there")
}

func TestNewRole(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.action(actNewRole)
	require.Len(t, e.forms, 1)
	assert.Equal(t, []string{"AWS", "AZURE", "GCP"}, e.forms[0].Fields[0].Choices)
	err := e.submit(components.FormValues{"provider": "AZURE", "appId": "app-1", "principalId": "sp-1"})
	assert.ErrorContains(t, err, "tenantId is required for AZURE")
	assert.Empty(t, e.sent())

	require.NoError(t, e.submit(components.FormValues{}), "AWS is the default and needs no ids")
	assert.Len(t, e.sent(), 1)
	require.Len(t, e.done, 1)
	assert.NoError(t, e.done[0].Err)
	assert.Contains(t, e.lastToast().Text, "AWS access role")
	assert.Contains(t, e.lastToast().Text, "press z")
	_, _, roles := e.settings()
	require.Len(t, roles.AWSIAMRoles, 3)
	view := ansi.Strip(e.pane.View())
	assert.Contains(t, view, "CLOUD PROVIDER ACCESS ROLES (5)")
	assert.Equal(t, roles.AWSIAMRoles[2].RoleID, e.pane.Selected(), "the cursor is on the new role")

	e.action(actNewRole)
	require.NoError(t, e.submit(components.FormValues{"provider": "AZURE", "appId": "app-1", "principalId": "sp-1", "tenantId": "tenant-1"}))
	_, _, roles = e.settings()
	require.Len(t, roles.AzureServicePrincipals, 2)
	assert.Equal(t, "tenant-1", roles.AzureServicePrincipals[1].TenantID)
}

func TestFailedCreateKeepsTheFormOpenWithTheError(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.action(actNewRole)
	// Past the form's own checks, the client refuses an unknown provider.
	e.send(views.ActionMsg{Name: actNewRole, Confirmed: true, Form: formNewRole, Values: components.FormValues{"provider": "IBM"}})
	require.Len(t, e.done, 1)
	assert.Equal(t, formNewRole, e.done[0].ID)
	assert.ErrorContains(t, e.done[0].Err, "providerName")
	assert.Empty(t, e.sent())
}

func TestCursorFollowsTheRowAcrossReloads(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	for range 5 {
		e.key("j")
	}
	sel := e.pane.Selected()
	require.NotEmpty(t, sel, "on a role")
	e.send(views.RefreshMsg{})
	assert.Equal(t, sel, e.pane.Selected())
	e.send(views.FilterMsg{Text: "GCP"})
	assert.Len(t, e.pane.roles(), 1)
	e.send(views.FilterMsg{Text: ""})
	assert.Equal(t, sel, e.pane.Selected())
	e.key("G")
	e.key("k")
	e.key("g")
	r, _ := e.pane.row()
	assert.Equal(t, rowAuditing, r.id)
}

func TestServerStringsAreSanitized(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.pane.snap.Audit.AuditFilter = "{\"x\":\"\x1b]0;pwned\x07\x1b[2J\"}"
	e.pane.snap.Roles.AWSIAMRoles[0].IAMAssumedRoleARN = "arn\x1b[31mred"
	e.selectRow(rowFilter)
	v := e.pane.View()
	assert.NotContains(t, v, "\x1b]0;")
	assert.NotContains(t, v, "\x1b[2J")
	e.selectRow(roleRowID(&e.pane.snap.Roles.AWSIAMRoles[0]))
	assert.NotContains(t, e.pane.View(), "\x1b[31m")
}
