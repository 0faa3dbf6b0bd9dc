package ui

import (
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/keymap/keytest"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// BenchmarkFrame100k is one whole frame of the root model (header, tabs,
// the alerts pane with 100,172 alerts loaded through apisim, footer) at
// 200x60: "cached" draws the same screen again, "cursor" moves the cursor
// one row first (the table draws its window anew, the header's counts
// stay cached). It does not cover Bubble Tea's renderer (diffing the frame
// against the last and writing it to the terminal) nor loading the list.
func BenchmarkFrame100k(b *testing.B) {
	srv, err := apisim.New(apisim.Options{})
	require.NoError(b, err)
	require.NoError(b, srv.AddAlerts(apisim.DemoPaymentsID, 100_000))
	ts := httptest.NewServer(srv.Handler())
	b.Cleanup(ts.Close)
	client, err := apiclient.New(apiclient.Options{BaseURL: ts.URL, Service: "atlas",
		Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"), Gate: apiclient.NewGate(nil), MaxRetries: -1})
	require.NoError(b, err)
	m, err := New(Options{Client: client, Profile: "bench", Theme: "dark", Project: apisim.DemoPaymentsID,
		Clock: func() time.Time { return viewstest.Start }, State: &ContextStore{Path: filepath.Join(b.TempDir(), "context.json")}})
	require.NoError(b, err)
	d := newDriver(b, m, 200, 60)
	d.Deadline = 2 * time.Minute
	d.Settle()
	screen := ansi.Strip(m.View().Content)
	require.Contains(b, screen, "100172 alerts", "the whole list is loaded:\n%s", screen)
	require.NotContains(b, screen, " of 100172", "the full pass is over")

	b.Run("cached", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			_ = m.View()
		}
	})
	b.Run("cursor", func(b *testing.B) {
		b.ReportAllocs()
		keys := []string{"j", "k"}
		for i := range b.N {
			d.Send(keytest.Press(keys[i%2]))
			_ = m.View()
		}
		require.True(b, strings.Contains(ansi.Strip(m.View().Content), "alerts · "))
	})
}
