package ui

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/views/viewstest"
)

// hostile carries every sequence a server string could use against a
// terminal or a reader: OSC 8 hyperlink, OSC 52 clipboard write, OSC 0
// title, CSI cursor moves and clear, C1 CSI, DCS, bracketed-paste end,
// bidi overrides and isolates, NUL and other C0/C1 controls, and markdown
// links, images and HTML.
const hostile = "\x1b]8;;https://evil.example/osc8\x07link\x1b]8;;\x07" +
	"\x1b]52;c;cHduZWQ=\x07" +
	"\x1b]0;pwned-title\x07" +
	"\x1b[2J\x1b[H\x1b[10;10H\x1b[5A" +
	"\xc2\x9b2J" +
	"\x1bPq#0;2;0;0;0\x1b\\" +
	"\x1b[201~" +
	"\u202eevil\u202c\u2066x\u2069" +
	"\x00\x01\x08\x7f\xc2\x85\r" +
	"[the runbook](https://evil.example/md) ![i](https://evil.example/i.png) <a href='https://evil.example'>h</a>"

// structural members stay as they are: ids and names the client puts in
// paths, enumerations and times the simulator computes with. Every other
// string of every resource is poisoned.
var structural = regexp.MustCompile(`^(id|clusterName|.*Id|.*ID|.*Ids|kind|type|typeName|status|state|provider|providerName|region|instanceSize|mongoDBVersion|version|role|roleName|frequencyType|deliveryType|snapshotType|eventTypeName|metricName|units|operator|mode|format|created|updated|.*At|.*Date|.*Time|resolved|lastNotified|acknowledgedUntil|expiresAt)$`)

// poisonedIDs are the collections whose ids are shown (the backups footer,
// the alert detail) but not needed to list anything.
var poisonedIDs = map[string]bool{"snapshots": true, "restoreJobs": true, "exportJobs": true, "exportBuckets": true,
	"alerts": true, "alertConfigs": true, "accessRoles": true, "searchIndexes": true}

func poison(v any, key, parent string, n *int) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = poison(e, k, key, n)
		}
	case []any:
		for i, e := range x {
			x[i] = poison(e, key, parent, n)
		}
	case string:
		idShown := key == "id" && poisonedIDs[parent]
		if (structural.MatchString(key) && !idShown) || (key == "name" && parent == "clusters") || key == "hostname" || key == "userAlias" {
			return x
		}
		if _, err := time.Parse(time.RFC3339, x); err == nil {
			return x
		}
		*n++
		s := hostile + x + hostile
		if *n%10 == 0 {
			s += strings.Repeat("W", 10000) // a 10k-character line
		}
		return s
	}
	return v
}

// poisonedWorld writes the seeded world's state file with every
// displayable string poisoned and starts apisim on it.
func poisonedWorld(t *testing.T) string {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	clock := apisim.NewManualClock(viewstest.Start)
	s, err := apisim.New(apisim.Options{StateFile: path, Clock: clock})
	require.NoError(t, err)
	require.NoError(t, s.Close())
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var st map[string]any
	require.NoError(t, json.Unmarshal(raw, &st))
	n := 0
	poison(st["world"], "world", "", &n)
	require.Greater(t, n, 500, "strings poisoned")
	raw, err = json.Marshal(st)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, raw, 0o600))
	s, err = apisim.New(apisim.Options{StateFile: path, Clock: clock})
	require.NoError(t, err)
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { ts.Close(); _ = s.Close() })
	return ts.URL
}

var sgr = regexp.MustCompile(`^\x1b\[[0-9;:]*m`)

// scanFrame reports the first thing in a frame a terminal would act on
// other than colour: any escape sequence but SGR, C0 (but newline) and C1
// controls, DEL, bidi controls; and a line wider than the screen.
func scanFrame(frame string, width int) string {
	for i := 0; i < len(frame); {
		if frame[i] == 0x1b {
			m := sgr.FindString(frame[i:])
			if m == "" {
				return fmt.Sprintf("escape sequence %q", frame[i:min(i+24, len(frame))])
			}
			i += len(m)
			continue
		}
		r, size := utf8.DecodeRuneInString(frame[i:])
		switch {
		case r == '\n':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			return fmt.Sprintf("control character %U near %q", r, frameAround(frame, i))
		case (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f:
			return fmt.Sprintf("bidi control %U near %q", r, frameAround(frame, i))
		}
		i += size
	}
	for _, line := range strings.Split(frame, "\n") {
		if w := ansi.StringWidth(line); w > width {
			return fmt.Sprintf("a line of width %d on a screen of %d", w, width)
		}
	}
	return ""
}

func frameAround(s string, i int) string {
	lo, hi := max(i-40, 0), min(i+40, len(s))
	return ansi.Strip(s[lo:hi])
}

// The poisoned world: every pane and view at 80x24 and 200x60, and no frame
// carries anything a terminal would act on.
func TestPoisonedWorldWritesNothingHostile(t *testing.T) {
	t.Chdir(t.TempDir())
	base := poisonedWorld(t)
	visits := []struct{ name, keys string }{
		{"alerts", "1"}, {"alert detail", "enter"}, {"back", "esc"},
		{"alert configs", "c"}, {"config detail", "enter"}, {"back", "esc"}, {"back", "esc"},
		{"backups", "2"}, {"restores", "tab"}, {"exports", "tab"}, {"buckets", "tab"}, {"schedule", "tab"}, {"compliance", "tab"},
		{"search", "3"}, {"search detail", "enter"}, {"search row", "j"}, {"search row", "j"}, {"search detail", "enter"}, {"analyzers", "A"}, {"back", "esc"},
		{"access logs", "4"}, {"raw line", "l"}, {"back", "esc"},
		{"migration", "5"},
		{"settings", "6"},
		{"help", "?"}, {"back", "esc"},
		{"picker", "@"}, {"back", "esc"},
		{"palette", ":"}, {"back", "esc"},
	}
	for _, run := range []struct {
		size    [2]int
		cluster string
	}{{[2]int{80, 24}, ""}, {[2]int{200, 60}, ""}, {[2]int{80, 24}, "payments-rs"}, {[2]int{200, 60}, "payments-rs"}} {
		size := run.size
		client, err := apiclient.New(apiclient.Options{BaseURL: base, Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"),
			Gate: apiclient.NewGate(nil), MaxRetries: -1})
		require.NoError(t, err)
		m, err := New(Options{Client: client, Profile: "poisoned", Theme: "dark", Cluster: run.cluster, Clock: func() time.Time { return viewstest.Start },
			State: &ContextStore{Path: filepath.Join(t.TempDir(), "context.json")}})
		require.NoError(t, err)
		d := newDriver(t, m, size[0], size[1])
		d.Settle()
		require.Equal(t, phaseReady, m.phase)
		frames, shown := 0, map[string]bool{}
		for _, v := range visits {
			d.Send(viewstest.Press(v.keys))
			d.Settle()
			frame := m.View().Content
			frames++
			if strings.Contains(ansi.Strip(frame), "evil") || strings.Contains(ansi.Strip(frame), "the runbook") {
				shown[v.name] = true
			}
			if bad := scanFrame(frame, size[0]); bad != "" {
				t.Errorf("%dx%d %q %s: %s", size[0], size[1], run.cluster, v.name, bad)
			}
		}
		t.Logf("%dx%d %q: %d frames scanned; poisoned text visible in %d views", size[0], size[1], run.cluster, frames, len(shown))
		// The poison reached the screen (as text) in every pane.
		want := []string{"alerts", "alert detail", "search detail", "settings"}
		if run.cluster != "" {
			want = append(want, "backups", "restores", "exports")
		}
		for _, view := range want {
			require.True(t, shown[view], "%dx%d: no poisoned text visible in %s", size[0], size[1], view)
		}
	}
}
