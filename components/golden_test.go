package components

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/dbadmin-tui/dbadmin-tui/themes"
)

// Golden views are ANSI-stripped; regenerate with `go test ./components/ -update`.

func goldenTable(th themes.Theme) Table {
	cols := []Column{
		{Title: "Severity", Width: 9},
		{Title: "Event", MinWidth: 20},
		{Title: "Cluster", Width: 12},
		{Title: "Status", Width: 12},
		{Title: "Age", Width: 5, Align: AlignRight},
	}
	events := []string{"OUTSIDE_METRIC_THRESHOLD", "HOST_DOWN", "REPLICATION_OPLOG_WINDOW_RUNNING_OUT", "NO_PRIMARY", "CLUSTER_MONGOS_IS_MISSING"}
	statuses := []string{"OPEN", "TRACKING", "ACKNOWLEDGED", "CLOSED"}
	var rows []Row
	for i := 0; i < 30; i++ {
		sev := severities[i%len(severities)]
		rows = append(rows, Row{
			ID:    fmt.Sprintf("a%02d", i),
			Class: sev,
			Cells: []string{sev, events[i%len(events)], fmt.Sprintf("cluster-%d", i%3), statuses[i%len(statuses)], fmt.Sprintf("%dm", i*7)},
		})
	}
	rows[4].Cells[1] = "evil \x1b]0;pwned\x07title \x1b[2Jhere"
	tb := NewTable(cols, th, nil)
	tb.SetSize(80, 24)
	tb.SetRows(rows)
	tb.SortBy(1, false)
	tb.ToggleMark("a03")
	tb.ToggleMark("a07")
	tb.SetCursorID("a07")
	return tb
}

func TestGoldenTable(t *testing.T) {
	for _, name := range themes.Names() {
		t.Run(name, func(t *testing.T) {
			v := goldenTable(themes.MustGet(name)).View()
			lines := strings.Split(v, "\n")
			if len(lines) != 24 {
				t.Fatalf("want 24 lines, got %d", len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w > 80 {
					t.Fatalf("line %d is %d wide", i, w)
				}
			}
			golden.RequireEqual(t, ansi.Strip(v))
		})
	}
}

func TestGoldenDialogs(t *testing.T) {
	th := dark()
	t.Run("confirm", func(t *testing.T) {
		c := NewConfirm("cutover", "Cut over migration?", "Writes to the source cluster stop and clients must switch to the destination. This cannot be undone.", nil, th, nil).WithDangerous(true)
		c.SetSize(80, 24)
		golden.RequireEqual(t, ansi.Strip(c.View()))
	})
	t.Run("typed_confirm_mismatch", func(t *testing.T) {
		c := NewTypedConfirm("drop", "Delete search index", "The index orders-search on cluster prod-eu will be deleted.", "orders-search", nil, th, nil)
		c.SetSize(80, 24)
		for _, m := range typeText("orders") {
			c, _ = c.Update(m)
		}
		c, _ = c.Update(key("enter"))
		golden.RequireEqual(t, ansi.Strip(c.View()))
	})
	t.Run("form_invalid_then_submit_error", func(t *testing.T) {
		f := NewForm("ack", "Acknowledge alert", []Field{
			{Key: "comment", Label: "Comment", CharLimit: 200, Placeholder: "why", Validate: func(v string, _ FormValues) error {
				if len(v) < 5 {
					return errors.New("at least 5 characters")
				}
				return nil
			}},
			{Key: "until", Label: "Acknowledge for", Kind: FieldChoice, Choices: []string{"1h", "4h", "24h", "until…", "forever"}, Choice: 1},
			{Key: "notify", Label: "Notify the team", Kind: FieldToggle, On: true},
		}, nil, th, nil)
		f.SetSize(80, 24)
		for _, m := range typeText("disk") {
			f, _ = f.Update(m)
		}
		f, _ = f.Update(key("enter"))
		for _, m := range typeText(" full") {
			f, _ = f.Update(m)
		}
		f, _ = f.Update(key("enter"))
		f.SetSubmitError("ALERT_ALREADY_ACKNOWLEDGED", "Alert a07 was acknowledged by someone else.")
		golden.RequireEqual(t, ansi.Strip(f.View()))
	})
}
