package backups

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// Issue 24 case 4: enter on a restore job opens its detail with every
// field and the whole download URL, wrapped, never cut; y copies the URL
// (not the id) from the list and from the detail and says what it copied;
// esc goes back to the list with the cursor on the job.
func TestRestoreDetailShowsTheWholeURLAndYCopiesIt(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 80, 24)
	h.ActionKey("J")
	var dl restoreRow
	for i, r := range h.P.data.Restores {
		if len(r.URLs) > 0 {
			dl = r
			h.P.restores.SetCursor(i)
		}
	}
	require.NotEmpty(t, dl.URLs, "the demo holds a finished download restore")
	url := dl.URLs[0]
	require.Greater(t, len(url), 80, "longer than the screen is wide")

	text, what, ok := h.P.Yank()
	require.True(t, ok, "y on the list row copies the URL")
	assert.Equal(t, url, text)
	assert.Equal(t, "the download URL of restore "+short(dl.ID), what)
	wide := newHarness(t, w, "payments-rs", 160, 24)
	wide.ActionKey("J")
	wide.P.restores.SetCursorID(dl.ID)
	assert.Contains(t, lastLine(wide), "enter detail  y copy URL", "the hint line offers it where it fits")

	h.Press("enter")
	require.True(t, h.P.detailOn())
	screen := h.Screen()
	joined := strings.ReplaceAll(screen, "\n", "")
	assert.Contains(t, joined, url, "the whole URL, wrapped:\n%s", screen)
	for _, want := range []string{"Id               " + dl.ID, "State            finished", "Delivery         download",
		"Snapshot         " + dl.SnapshotID, "none: files to download", "Link expires", "Download URL (y copies it)"} {
		assert.Contains(t, screen, want)
	}
	assert.Contains(t, lastLine(h), "esc back")
	text, _, ok = h.P.Yank()
	assert.True(t, ok)
	assert.Equal(t, url, text, "y in the detail copies the URL too")
	requireGolden(t, "restore_detail_80x24", screen)

	h.Press("esc")
	assert.False(t, h.P.detailOn())
	assert.Equal(t, dl.ID, h.P.restores.SelectedID(), "back on the job")

	// A job that is no download: y copies the selection as elsewhere.
	for i, r := range h.P.data.Restores {
		if len(r.URLs) == 0 {
			h.P.restores.SetCursor(i)
			break
		}
	}
	_, _, ok = h.P.Yank()
	assert.False(t, ok)
	assert.NotContains(t, lastLine(h), "y copy URL")
	h.ActionKey("S")
	_, _, ok = h.P.Yank()
	assert.False(t, ok, "a snapshot's y copies its id (the root's)")
}

// A failed snapshot's detail says so and every field it has; taller than
// the screen, it scrolls.
func TestSnapshotDetailShowsEveryFieldAndScrolls(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 80, 24)
	var failed snapRow
	for i, s := range h.P.data.Snaps {
		if s.Status == string(apiclient.SnapshotFailed) {
			failed = s
			h.P.snaps.SetCursor(i)
			break
		}
	}
	require.NotEmpty(t, failed.ID)
	h.Press("enter")
	require.True(t, h.P.detailOn())
	screen := h.Screen()
	for _, want := range []string{"Snapshot of payments-rs", "Id               " + failed.ID, "Status           failed", "Failure",
		"Type             scheduled", "Created", "Expires", "Size", "MongoDB          6.0.18", "Encryption key"} {
		assert.Contains(t, screen, want)
	}
	requireGolden(t, "snapshot_detail_80x24", screen)

	small := newHarness(t, w, "payments-rs", 80, 10)
	small.P.snaps.SetCursor(4)
	small.Press("enter")
	top := small.Screen()
	small.Press("down", "down", "down")
	assert.NotEqual(t, top, small.Screen(), "the detail scrolls")
	assert.Equal(t, 3, small.P.item.YOffset())
	small.Press("enter")
	assert.False(t, small.P.detailOn(), "enter closes it again")
}

// A restore started through the wizard names its target project in the
// detail (the wizard listed the projects), and marks an in-place one.
func TestRestoreDetailNamesTheTargetProject(t *testing.T) {
	w := newWorld(t)
	h := newHarness(t, w, "payments-rs", 100, 30)
	h.P.snaps.SetCursor(3)
	restoreThroughWizard(t, h, false)
	h.Confirm("")
	require.Equal(t, viewRestores, h.P.view)
	h.Press("enter")
	screen := h.Screen()
	assert.Contains(t, screen, "Target cluster   staging-rs")
	assert.Contains(t, screen, "Target project   staging ("+apisim.DemoStagingID+")")
	assert.Contains(t, screen, "State            running")
}
