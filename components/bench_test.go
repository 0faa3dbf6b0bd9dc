package components

import (
	"fmt"
	"testing"

	btable "charm.land/bubbles/v2/table"
)

const benchRows = 100_000

var severities = []string{"CRITICAL", "ERROR", "WARNING", "INFO"}

func benchData() ([]Column, []Row) {
	cols := []Column{
		{Title: "ID", Width: 26},
		{Title: "Severity", Width: 10},
		{Title: "Status", Width: 14},
		{Title: "Event", MinWidth: 20},
		{Title: "Cluster", Width: 20},
		{Title: "Created", Width: 20},
	}
	rows := make([]Row, benchRows)
	for i := range rows {
		sev := severities[i%len(severities)]
		rows[i] = Row{
			ID:    fmt.Sprintf("5f3c%020d", i),
			Class: sev,
			Cells: []string{
				fmt.Sprintf("5f3c%020d", i), sev, "OPEN",
				fmt.Sprintf("OUTSIDE_METRIC_THRESHOLD disk usage on host %d above 90%%", i),
				fmt.Sprintf("cluster-%d", i%37), "2025-03-12T10:00:00Z",
			},
		}
	}
	return cols, rows
}

// BenchmarkTableWidget100k measures the table widget alone (a cursor move
// and View) at 200x60 over 100,000 rows, ours against bubbles/v2/table. It
// is not a screen: the pane's header line, the root's header, tabs and
// footer and Bubble Tea's renderer are left out (ui's BenchmarkFrame100k
// is the whole frame, beside bubbles/table).
func BenchmarkTableWidget100k(b *testing.B) {
	cols, rows := benchData()

	b.Run("ours", func(b *testing.B) {
		tb := NewTable(cols, dark(), nil)
		tb.SetSize(200, 60)
		tb.SetRows(rows)
		tb.SetCursor(benchRows / 2)
		_ = tb.View()
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if i%2 == 0 {
				tb.MoveCursor(1)
			} else {
				tb.MoveCursor(-1)
			}
			if len(tb.View()) == 0 {
				b.Fatal("empty view")
			}
		}
	})

	// The worst frame: every visible row rendered from scratch (the first
	// frame after a resize or a refresh).
	b.Run("ours_uncached", func(b *testing.B) {
		tb := NewTable(cols, dark(), nil)
		tb.SetRows(rows)
		tb.SetCursor(benchRows / 2)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			tb.SetSize(200-i%2, 60)
			if len(tb.View()) == 0 {
				b.Fatal("empty view")
			}
		}
	})

	b.Run("bubbles", func(b *testing.B) {
		bcols := make([]btable.Column, len(cols))
		for i, c := range cols {
			w := c.Width
			if w == 0 {
				w = 200 - 2 - 5 - 26 - 10 - 14 - 20 - 20
			}
			bcols[i] = btable.Column{Title: c.Title, Width: w}
		}
		brows := make([]btable.Row, len(rows))
		for i, r := range rows {
			brows[i] = btable.Row(r.Cells)
		}
		bt := btable.New(btable.WithColumns(bcols), btable.WithRows(brows), btable.WithWidth(200), btable.WithHeight(60), btable.WithFocused(true))
		bt.SetCursor(benchRows / 2)
		_ = bt.View()
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if i%2 == 0 {
				bt.MoveDown(1)
			} else {
				bt.MoveUp(1)
			}
			if len(bt.View()) == 0 {
				b.Fatal("empty view")
			}
		}
	})
}

// BenchmarkTableSetRows100k is the cost of a refresh of 100,000 rows
// (sanitize, index, sort, keep the cursor), paid once per poll, not per frame.
func BenchmarkTableSetRows100k(b *testing.B) {
	cols, rows := benchData()
	tb := NewTable(cols, dark(), nil)
	tb.SetSize(200, 60)
	tb.SortBy(3, false)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tb.SetRows(rows)
	}
}
