package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

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
			view := e.P.View()
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
	view := ansi.Strip(e.P.View())
	assert.Contains(t, view, "not readable with your roles")
	assert.Contains(t, view, "Custom DNS", "the rest still loads")
	assert.Contains(t, view, "CLOUD PROVIDER ACCESS ROLES (4)")
}

func TestToggleCustomDNSAsksWithTheNoteThenSends(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.Action(actCustomDNS)
	c := e.LastConfirm()
	assert.Equal(t, "Turn custom DNS for AWS off?", c.Title)
	assert.Empty(t, e.Sim.Writes(), "asking sends nothing")

	e.Confirm("")
	assert.Equal(t, []string{"PATCH /api/atlas/v2/groups/" + e.P.Ctx.GroupID + "/awsCustomDNS"}, e.Sim.Writes())
	_, dns, _ := e.settings()
	assert.False(t, dns.Enabled)
	assert.Contains(t, ansi.Strip(e.P.View()), "custom DNS for AWS turned off")

	// And back on: the confirmation carries the private-IP note.
	e.Action(actCustomDNS)
	assert.Contains(t, e.LastConfirm().Body, "private-IP connection strings")
	e.Confirm("")
	_, dns, _ = e.settings()
	assert.True(t, dns.Enabled)
}

func TestEnterOnASettingAsksLikeItsKey(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.selectRow(rowDNS)
	e.Press("enter")
	assert.Equal(t, actCustomDNS, e.LastConfirm().Action.Name)
	e.selectRow(rowAuditing)
	e.Press("enter")
	assert.Equal(t, "Turn auditing off?", e.LastConfirm().Title)
	assert.Empty(t, e.Sim.Writes())
}

func TestSuccessfulAuthorizationsWarnBeforeSaving(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.selectRow(rowAuthSuccess)
	e.Press("enter")
	c := e.LastConfirm()
	assert.Equal(t, "Record successful authorizations?", c.Title)
	assert.Contains(t, c.Body, "degrades cluster performance")
	assert.Equal(t, actAuditing, c.Action.Name, "gated as the auditing change")
	assert.Empty(t, e.Sim.Writes(), "the warning comes before anything is saved")

	e.Confirm("")
	a, _, _ := e.settings()
	assert.True(t, a.AuditAuthorizationSuccess)
	assert.True(t, a.Enabled, "only the flag changed")

	// Turning auditing off and on again repeats the warning while it is on.
	e.Action(actAuditing)
	e.Confirm("")
	e.Action(actAuditing)
	assert.Equal(t, "Turn auditing on?", e.LastConfirm().Title)
	assert.Contains(t, e.LastConfirm().Body, "degrades cluster performance")
}

func TestAuditFilterSyntaxErrorReopensTheEditorWithTheText(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.Action(actEditFilter)
	require.Equal(t, 1, e.Launches(), "the editor opened")

	bad := "// header\n// header\n// status\n{\n  \"atype\": \"authenticate\",\n  \"param\": {\"user\": }\n}\n"
	e.Send(edited(editKey, "", bad))
	assert.Equal(t, 2, e.Launches(), "reopened")
	assert.Equal(t, "{\n  \"atype\": \"authenticate\",\n  \"param\": {\"user\": }\n}", e.P.draft, "the text is kept, header dropped")
	assert.Contains(t, e.P.draftErr, "line 3, column 21")
	assert.Empty(t, e.Sim.Writes())

	// Saved unchanged on the reopened round: stop, keep the text, say where.
	e.Send(edited(reopenKey, e.P.draft, "// h\n// h\n// ✗ line 6\n"+e.P.draft))
	assert.Equal(t, 2, e.Launches(), "not reopened again")
	assert.True(t, e.LastToast().Err)
	assert.Contains(t, e.LastToast().Text, "line 3, column 21")
	assert.Contains(t, e.LastToast().Text, "your text is kept")
	view := ansi.Strip(e.P.View())
	assert.Contains(t, view, "unsaved draft")
	assert.Contains(t, view, `"param": {"user": }`)

	// e reopens it with the draft.
	e.Action(actEditFilter)
	assert.Equal(t, 3, e.Launches())
	assert.Empty(t, e.Sim.Writes())
}

func TestAuditFilterSavedAfterConfirmation(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.Action(actEditFilter)
	e.Send(edited(editKey, "", "// h\n{\n  \"atype\": \"createCollection\"\n}\n"))
	c := e.LastConfirm()
	assert.Equal(t, "Save the audit filter?", c.Title)
	assert.Contains(t, c.Body, `{"atype":"createCollection"}`)
	assert.Empty(t, e.Sim.Writes(), "nothing before yes")

	e.Confirm("")
	assert.Len(t, e.Sim.Writes(), 1)
	a, _, _ := e.settings()
	assert.Equal(t, `{"atype":"createCollection"}`, a.AuditFilter)
	assert.Equal(t, apiclient.AuditFilterJSON, a.ConfigurationType)
	assert.Empty(t, e.P.draft)
	assert.Contains(t, e.LastToast().Text, "audit filter saved")
}

func TestAuditFilterUnchangedOrEmptySendsNothing(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	cur := e.P.snap.Audit.AuditFilter
	e.Send(edited(editKey, "", pretty(cur)))
	assert.Contains(t, e.P.notice, "unchanged")
	e.Send(edited(editKey, "", "// only comments\n\n"))
	assert.Contains(t, e.LastToast().Text, "empty document")
	assert.Empty(t, e.Confirms)
	assert.Empty(t, e.Sim.Writes())
}

func TestRefusedFilterSaveKeepsTheText(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	// The server refuses what the client would: a filter that is not an
	// object never leaves, and the user's text stays as the draft.
	e.Send(views.ActionMsg{Name: actEditFilter, Confirmed: true, Payload: filterDoc{Text: `["authenticate"]`}})
	assert.Empty(t, e.Sim.Writes())
	assert.Equal(t, `["authenticate"]`, e.P.draft)
	assert.Contains(t, e.P.draftErr, "auditFilter")
	assert.True(t, e.LastToast().Err)
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
	round := (&Pane{Base: views.NewBase(ID, views.Context{ProjectName: "payments"}, nil)}).editRound("{}", "Edit the filter below.", editKey)
	round.Run = func(p string, done func(error) tea.Msg) tea.Cmd {
		path = p
		return views.RunEditor(p, done)
	}
	answer, ok := round.Open()().(views.PaneMsg)
	require.True(t, ok)
	assert.Equal(t, ID, answer.Pane)
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
	id := e.P.Selected()
	e.Action(actAuthorize)
	require.Len(t, e.Forms, 1)
	f := e.Forms[0]
	assert.Equal(t, id, f.Action.Target)
	require.Len(t, f.Fields, 1)
	assert.Contains(t, f.Fields[0].Hint, "arn:aws:iam::012345678901:root", "the account to trust")
	assert.Regexp(t, `external id [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`, f.Fields[0].Hint)

	for bad, why := range map[string]string{
		"arn:aws:iam::1234:role/atlas":   "12-digit account",
		"arn:aws:s3:::bucket":            "must start with arn:aws:iam::",
		"arn:aws:iam::123456789012:user": "12-digit account",
		"":                               "required",
	} {
		err := e.Submit(components.FormValues{"arn": bad})
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), why, bad)
	}
	assert.Empty(t, e.Sim.Writes(), "a bad ARN is never sent")
	// A value that slipped past the form is checked again, and the form told.
	e.Send(views.ActionMsg{Name: actAuthorize, Confirmed: true, Target: id, Values: components.FormValues{"arn": "nope"}})
	require.Len(t, e.FormsDone, 1)
	assert.Error(t, e.FormsDone[0].Err)
	assert.Empty(t, e.Sim.Writes())

	require.NoError(t, e.Submit(components.FormValues{"arn": " arn:aws:iam::123456789012:role/atlas-payments-exports "}))
	assert.Len(t, e.Sim.Writes(), 1)
	require.Len(t, e.FormsDone, 2)
	assert.NoError(t, e.FormsDone[1].Err, "the form closes")
	_, _, roles := e.settings()
	for _, r := range roles.AWSIAMRoles {
		if r.RoleID == id {
			require.NotNil(t, r.AuthorizedDate)
			assert.True(t, r.AuthorizedDate.Equal(e.Sim.Clock.Now()))
			assert.Equal(t, "arn:aws:iam::123456789012:role/atlas-payments-exports", r.IAMAssumedRoleARN)
		}
	}
	assert.NotContains(t, ansi.Strip(e.P.View()), "not authorized")
}

func TestAuthorizeNeedsARole(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.selectRow(rowDNS)
	e.Action(actAuthorize)
	assert.Empty(t, e.Confirms)
	assert.Contains(t, e.LastToast().Text, "select an access role")
	e.selectRow(e.roleRow(func(r apiclient.AccessRole) bool { return r.ProviderName == "GCP" }))
	e.Action(actAuthorize)
	assert.Contains(t, e.LastToast().Text, "GCP service accounts need no authorization")
	assert.Empty(t, e.Sim.Writes())
}

func TestDeauthorizeRefusedWhileAnExportBucketUsesTheRole(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.selectRow(e.roleRow(func(r apiclient.AccessRole) bool { return r.ProviderName == "AWS" && len(r.FeatureUsage) > 0 }))
	e.Action(actDeauthorize)
	assert.Empty(t, e.Confirms, "refused before asking")
	assert.Contains(t, e.LastToast().Text, "used by export bucket payments-exports")
	assert.Contains(t, e.LastToast().Text, "delete that bucket")
	assert.Contains(t, ansi.Strip(e.P.View()), "payments-exports; delete that bucket")
	assert.Empty(t, e.Sim.Writes())

	// An unused role: confirm (default No at the root), then removed.
	e.selectRow(e.roleRow(func(r apiclient.AccessRole) bool { return r.ProviderName == "AWS" && len(r.FeatureUsage) == 0 }))
	id := e.P.Selected()
	e.Action(actDeauthorize)
	assert.Equal(t, "Deauthorize access role?", e.LastConfirm().Title)
	assert.Empty(t, e.Sim.Writes())
	e.Confirm("")
	assert.Equal(t, []string{"DELETE /api/atlas/v2/groups/" + e.P.Ctx.GroupID + "/cloudProviderAccess/AWS/" + id}, e.Sim.Writes())
	_, _, roles := e.settings()
	assert.Len(t, roles.AWSIAMRoles, 1)
}

func TestDeauthorizeRefusalFromTheServerIsShown(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	// A stale screen: the pane thinks the role is unused, the server knows.
	e.selectRow(e.roleRow(func(r apiclient.AccessRole) bool { return r.ProviderName == "AWS" && len(r.FeatureUsage) > 0 }))
	id := e.P.Selected()
	e.P.snap.Roles.AWSIAMRoles[0].FeatureUsage = nil
	e.Send(views.ActionMsg{Name: actDeauthorize, Confirmed: true, Target: id, Payload: roleRef{Provider: "AWS", ID: id}})
	assert.Len(t, e.Sim.Writes(), 1)
	assert.Contains(t, e.LastToast().Text, "CLOUD_PROVIDER_ACCESS_ROLE_IN_USE")
	_, _, roles := e.settings()
	assert.Len(t, roles.AWSIAMRoles, 2, "still there")
}

func TestNewRole(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.Action(actNewRole)
	require.Len(t, e.Forms, 1)
	assert.Equal(t, []string{"AWS", "AZURE", "GCP"}, e.Forms[0].Fields[0].Choices)
	err := e.Submit(components.FormValues{"provider": "AZURE", "appId": "app-1", "principalId": "sp-1"})
	assert.ErrorContains(t, err, "tenantId is required for AZURE")
	assert.Empty(t, e.Sim.Writes())

	require.NoError(t, e.Submit(components.FormValues{}), "AWS is the default and needs no ids")
	assert.Len(t, e.Sim.Writes(), 1)
	require.Len(t, e.FormsDone, 1)
	assert.NoError(t, e.FormsDone[0].Err)
	assert.Contains(t, e.LastToast().Text, "AWS access role")
	assert.Contains(t, e.LastToast().Text, "press z")
	_, _, roles := e.settings()
	require.Len(t, roles.AWSIAMRoles, 3)
	view := ansi.Strip(e.P.View())
	assert.Contains(t, view, "CLOUD PROVIDER ACCESS ROLES (5)")
	assert.Equal(t, roles.AWSIAMRoles[2].RoleID, e.P.Selected(), "the cursor is on the new role")

	e.Action(actNewRole)
	const tenant = "91402512-7c3d-4e2d-9f11-0a1b2c3d4e5f"
	require.NoError(t, e.Submit(components.FormValues{"provider": "AZURE", "appId": "2b8e4a52-0c1f-4f6e-9d3a-5c7b1e0f9a11", "principalId": "6d0c2e8f-3b4a-4c1d-8e5f-7a9b0c1d2e3f", "tenantId": tenant}))
	_, _, roles = e.settings()
	require.Len(t, roles.AzureServicePrincipals, 2)
	assert.Equal(t, tenant, roles.AzureServicePrincipals[1].TenantID)
}

func TestFailedCreateKeepsTheFormOpenWithTheError(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.Action(actNewRole)
	// Past the form's own checks, the client refuses an unknown provider.
	e.Send(views.ActionMsg{Name: actNewRole, Confirmed: true, Form: formNewRole, Values: components.FormValues{"provider": "IBM"}})
	require.Len(t, e.FormsDone, 1)
	assert.Equal(t, formNewRole, e.FormsDone[0].ID)
	assert.ErrorContains(t, e.FormsDone[0].Err, "providerName")
	assert.Empty(t, e.Sim.Writes())
}

func TestCursorFollowsTheRowAcrossReloads(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	for range 5 {
		e.Press("j")
	}
	sel := e.P.Selected()
	require.NotEmpty(t, sel, "on a role")
	e.Send(views.RefreshMsg{})
	assert.Equal(t, sel, e.P.Selected())
	e.Send(views.FilterMsg{Text: "GCP"})
	assert.Len(t, e.P.roles(), 1)
	e.Send(views.FilterMsg{Text: ""})
	assert.Equal(t, sel, e.P.Selected())
	e.Press("G")
	e.Press("k")
	e.Press("g")
	r, _ := e.P.row()
	assert.Equal(t, rowAuditing, r.id)
}

func TestServerStringsAreSanitized(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	e.P.snap.Audit.AuditFilter = "{\"x\":\"\x1b]0;pwned\x07\x1b[2J\"}"
	e.P.snap.Roles.AWSIAMRoles[0].IAMAssumedRoleARN = "arn\x1b[31mred"
	e.selectRow(rowFilter)
	v := e.P.View()
	assert.NotContains(t, v, "\x1b]0;")
	assert.NotContains(t, v, "\x1b[2J")
	e.selectRow(roleRowID(&e.P.snap.Roles.AWSIAMRoles[0]))
	assert.NotContains(t, e.P.View(), "\x1b[31m")
}

// A confirmed action whose dialog carried no typed payload sends nothing
// and says so.
func TestConfirmedActionWithoutPayloadIsRefused(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 130, 24)
	for _, name := range []string{actAuditing, actEditFilter, actCustomDNS, actDeauthorize} {
		before := len(e.Toasts)
		e.Send(views.ActionMsg{Name: name, Confirmed: true, Target: "on"})
		require.Greater(t, len(e.Toasts), before, name)
		assert.True(t, e.LastToast().Err, name)
		assert.Contains(t, e.LastToast().Text, "nothing sent", name)
	}
	assert.Empty(t, e.Sim.Writes())
}
