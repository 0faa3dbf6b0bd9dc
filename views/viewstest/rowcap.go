package viewstest

import (
	"testing"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
)

// LowerRowCap sets the client's per-list row cap (apiclient.MaxRows) to n
// for the test, so a seeded list reaches it as a list of a hundred
// thousand rows would. Tests that call it must not run in parallel.
func LowerRowCap(t testing.TB, n int) {
	t.Helper()
	old := apiclient.MaxRows
	apiclient.MaxRows = n
	t.Cleanup(func() { apiclient.MaxRows = old })
}
