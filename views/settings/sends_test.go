package settings

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/components"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/themes"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// The new-role form says, wrapped whole at 80 columns, what enter sends
// for the provider chosen (its hint was cut there); the ids typed, which
// select AZURE, are named in it, and are what the server holds.
func TestNewRoleFormSaysWhatItSends(t *testing.T) {
	e := newEnv(t, "project-owner", views.LayoutWide, 80, 24)
	e.Action(actNewRole)
	require.Len(t, e.Forms, 1)
	m := e.Forms[0]
	f := components.NewForm(m.ID, m.Title, m.Fields, nil, themes.MustGet(themes.Mono), keymap.Default())
	f.SetSize(80, 40)
	flat := func() string {
		return strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(f.View()), "│", " ")), " ")
	}
	assert.Contains(t, flat(), "sends providerName AWS (the Azure ids below are not sent); the role is then authorized (z) with your IAM role's ARN")
	const app, sp, tn = "2b8e4a52-0c1f-4f6e-9d3a-5c7b1e0f9a11", "6d0c2e8f-3b4a-4c1d-8e5f-7a9b0c1d2e3f", "91402512-7c3d-4e2d-9f11-0a1b2c3d4e5f"
	for _, r := range "\t" + app + "\t" + sp + "\t" + tn {
		k := tea.KeyPressMsg{Code: r, Text: string(r)}
		if r == '\t' {
			k = tea.KeyPressMsg{Code: tea.KeyTab}
		}
		f, _ = f.Update(k)
	}
	assert.Contains(t, flat(), "sends providerName AZURE with the three Azure ids below")
	require.NoError(t, e.Submit(f.Values()))
	_, _, roles := e.settings()
	require.Len(t, roles.AzureServicePrincipals, 2)
	got := roles.AzureServicePrincipals[1]
	assert.Equal(t, []string{app, sp, tn}, []string{got.AtlasAzureAppID, got.ServicePrincipalID, got.TenantID})
}
