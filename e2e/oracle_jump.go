package e2e

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

var cellSep = regexp.MustCompile(`\s{2,}`)

// promptOpen says whether the filter prompt ("/…") or the palette (":…")
// is open on the screen's last lines: enter answers it, not the list.
func promptOpen(screen string) bool {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	for _, l := range lines[max(len(lines)-4, 0):] {
		if strings.HasPrefix(l, "/") || strings.HasPrefix(l, ":") {
			return true
		}
	}
	return false
}

// cursorRow is the cells of the row under the cursor (▸), or nil.
func cursorRow(screen string) []string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(l, "▸") {
			return cellSep.Split(strings.TrimSpace(strings.TrimPrefix(l, "▸")), -1)
		}
	}
	return nil
}

// checkJump holds a Triage jump to what the board showed under the
// cursor: enter on an alert row opens Alerts with that alert selected (its
// event type, cluster and age on the selected row), never another row or
// an empty list. "" when it does, or when the step was no such jump.
func checkJump(before, after string, keys []string) string {
	if len(keys) != 1 || keys[0] != "Enter" || dialogOf(before) != nil || paneOf(before) != "triage" || promptOpen(before) {
		return ""
	}
	row := cursorRow(before)
	k := slices.Index(row, "alert")
	if k < 0 {
		return ""
	}
	var where, event, age string
	for _, c := range row[k+1:] {
		switch {
		case strings.Contains(c, " › "):
			where = c
		case ageRe.MatchString(c):
			age = c
		case event == "" && eventRe.MatchString(firstWord(strings.TrimPrefix(c, "new: "))):
			event = firstWord(strings.TrimPrefix(c, "new: "))
		}
	}
	if where == "" || event == "" {
		return ""
	}
	ps := strings.Split(where, " › ")
	cluster := ps[len(ps)-1]
	if paneOf(after) != "alerts" {
		return fmt.Sprintf("enter on the board's alert %s on %s did not open Alerts", event, where)
	}
	got := cursorRow(after)
	if got == nil {
		return fmt.Sprintf("enter on the board's alert %s on %s opened Alerts with no row selected", event, where)
	}
	evOK, clOK, ageOK := false, len(ps) < 3, age == ""
	for _, c := range strings.Fields(strings.Join(got, " ")) {
		if matchesShown(c, event) || matchesShown(event, c) {
			evOK = true
		}
		if ageRe.MatchString(c) && c == age {
			ageOK = true
		}
		cc, cl := strings.TrimSuffix(c, "…"), strings.TrimSuffix(strings.TrimPrefix(cluster, "…"), "…")
		if len(cc) >= 3 && len(cl) >= 3 && (strings.HasPrefix(cc, cl) || strings.HasPrefix(cl, cc) || strings.Contains(cluster, cc)) {
			clOK = true
		}
	}
	if !evOK || !clOK || !ageOK {
		return fmt.Sprintf("enter on the board's alert %s on %s (%s) opened Alerts on another row: %q", event, where, age, strings.Join(got, "  "))
	}
	return ""
}

var (
	ageRe   = regexp.MustCompile(`^\d+[smhd]$`)
	eventRe = regexp.MustCompile(`^[A-Z][A-Z0-9_]{3,}…?$`)
)
