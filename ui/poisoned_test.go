package ui

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
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
	"\x1b[2J\x1b[H\x1b[10;10H\x1b[5A\x1b[7777;7777H\x1b[7777A\x1b[?7777h" +
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
	s, err := apisim.New(apisim.Options{StateFile: path, Clock: clock, Orgs: 2, Projects: 4})
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
	s, err = apisim.New(apisim.Options{StateFile: path, Clock: clock, Orgs: 2, Projects: 4})
	require.NoError(t, err)
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { ts.Close(); _ = s.Close() })
	return ts.URL
}

// hostileMarkers are pieces of the hostile payloads no sequence of the
// renderer's own contains: one inside an escape sequence means a payload
// reached the terminal as a sequence.
var hostileMarkers = []string{"evil", "pwned", "cHduZWQ", "7777", "q#0", "201~"}

// scanOutput reports everything in the raw bytes a program wrote that a
// terminal would act on other than what the renderer itself sends. The
// renderer's own sequences are, and are the only ones allowed:
//   - CSI SGR (colour and attributes: digits, ';' and ':' only);
//   - CSI cursor positioning and editing: CUP (H), CUU/CUD/CUF/CUB
//     (A B C D), CNL/CPL (E F), CHA (G), VPA (d), HPA (`), EL (K), ED (J),
//     ECH (X), REP (b), IL/DL (L M), ICH/DCH (@ P), SU/SD (S T) and
//     DECSTBM (r), every count and position within the screen;
//   - private modes set and reset (CSI ? N h/l) for the cursor (25), the
//     alternate screen (1049), bracketed paste (2004), synchronized output
//     (2026) and unicode core (2027), and their queries (CSI ? N $ p);
//   - ESC M (reverse index: the renderer's scrolling of a region);
//   - OSC 0/2 with exactly the dashboard's title (title), or empty at exit;
//   - CR, LF and BS, and BEL once per bell the model rang (bells).
//
// Nothing else: no OSC 8 hyperlink, OSC 52 clipboard or other OSC, no DCS,
// APC, PM or SOS, no 8-bit C1 control (as a UTF-8 rune or a raw byte, the
// C1 CSI among them), no other C0 control, no DEL, no bidi control.
func scanOutput(out []byte, width, height int, title string, bells int) []string {
	var bad []string
	report := func(i int, format string, args ...any) {
		if len(bad) < 20 {
			lo, hi := max(i-30, 0), min(i+40, len(out))
			bad = append(bad, fmt.Sprintf(format, args...)+fmt.Sprintf(" at byte %d near %q", i, out[lo:hi]))
		}
	}
	seenBells := 0
	for i := 0; i < len(out); {
		c := out[i]
		if c == 0x1b {
			seq, kind := escapeAt(out[i:])
			for _, m := range hostileMarkers {
				if strings.Contains(seq, m) {
					report(i, "hostile marker %q inside %s %q", m, kind, seq)
				}
			}
			if why := rendererOwn(seq, kind, width, height, title); why != "" {
				report(i, "%s %q: %s", kind, seq, why)
			}
			i += len(seq)
			continue
		}
		r, size := utf8.DecodeRune(out[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			report(i, "byte %#x outside UTF-8 (an 8-bit control)", c)
		case r == '\r' || r == '\n' || r == '\b':
		case r == '\a':
			seenBells++
		case r < 0x20 || r == 0x7f:
			report(i, "control character %U", r)
		case r >= 0x80 && r <= 0x9f:
			report(i, "C1 control %U", r)
		case (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c:
			report(i, "bidi control %U", r)
		}
		i += size
	}
	if seenBells != bells {
		bad = append(bad, fmt.Sprintf("%d BEL written, the model rang %d bells", seenBells, bells))
	}
	return bad
}

// escapeAt returns the escape sequence b starts with and its kind.
func escapeAt(b []byte) (string, string) {
	if len(b) < 2 {
		return string(b), "lone ESC"
	}
	switch b[1] {
	case '[':
		j := 2
		for j < len(b) && b[j] >= 0x20 && b[j] <= 0x3f {
			j++
		}
		if j < len(b) && b[j] >= 0x40 && b[j] <= 0x7e {
			return string(b[:j+1]), "CSI"
		}
		return string(b[:j]), "unterminated CSI"
	case ']', 'P', '_', '^', 'X':
		kind := map[byte]string{']': "OSC", 'P': "DCS", '_': "APC", '^': "PM", 'X': "SOS"}[b[1]]
		for j := 2; j < len(b); j++ {
			if b[j] == 0x07 && b[1] == ']' {
				return string(b[:j+1]), kind
			}
			if b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\' {
				return string(b[:j+2]), kind
			}
		}
		return string(b), "unterminated " + kind
	}
	return string(b[:2]), "ESC"
}

var (
	csiShape   = regexp.MustCompile(`^\x1b\[([?<>=]?)([0-9;:]*)([ -/]*)([@-~])$`)
	osTitle    = regexp.MustCompile(`^\x1b\][02];(.*)(\x07|\x1b\\)$`)
	ownEscapes = map[string]bool{"\x1bM": true} // RI, scrolling a region down
	// The renderer's own private modes: cursor (25), alternate screen
	// (1049), bracketed paste (2004), synchronized output (2026), grapheme
	// clusters (2027), and autowrap (7), which it turns off to write the
	// bottom-right cell without scrolling.
	ownModes   = map[string]bool{"7": true, "25": true, "1049": true, "2004": true, "2026": true, "2027": true}
	screenMove = "HABCDEFGd`XbLM@PSTr"
)

// rendererOwn says why seq is not one of the renderer's own sequences
// (see scanOutput), or "" when it is.
func rendererOwn(seq, kind string, width, height int, title string) string {
	switch kind {
	case "OSC":
		if m := osTitle.FindStringSubmatch(seq); m != nil && (m[1] == title || m[1] == "") {
			return "" // the title, and its reset at exit
		}
		return "an OSC the dashboard does not send"
	case "ESC":
		if ownEscapes[seq] {
			return ""
		}
		return "not a sequence the renderer sends"
	case "CSI":
	default:
		return "not a sequence the renderer sends"
	}
	m := csiShape.FindStringSubmatch(seq)
	if m == nil {
		return "malformed"
	}
	prefix, params, inter, final := m[1], m[2], m[3], m[4]
	switch {
	case prefix == "" && inter == "" && final == "m":
		return ""
	case prefix == "" && inter == "" && (final == "K" || final == "J"):
		if params == "" || params == "0" || params == "1" || params == "2" {
			return ""
		}
		return "an erase the renderer does not send"
	case prefix == "" && inter == "" && strings.Contains(screenMove, final):
		for _, p := range strings.Split(params, ";") {
			if p == "" {
				continue
			}
			n, err := strconv.Atoi(p)
			if err != nil || n > max(width, height) {
				return fmt.Sprintf("a count or position outside the %dx%d screen", width, height)
			}
		}
		return ""
	case prefix == "?" && inter == "" && (final == "h" || final == "l") && ownModes[params],
		prefix == "?" && inter == "$" && final == "p" && ownModes[params]:
		return ""
	}
	return "a control sequence the renderer does not send"
}

// The poisoned world, run in a real tea.Program: every pane and view at
// 80x24 and 200x60, and the raw bytes the renderer wrote to the terminal
// carry nothing a terminal would act on but the renderer's own sequences;
// no line of any frame is wider than the screen.
func TestPoisonedWorldWritesNothingHostile(t *testing.T) {
	t.Chdir(t.TempDir())
	base := poisonedWorld(t)
	visits := []struct{ name, keys string }{
		{"triage", "1"}, {"triage row", "j"},
		{"alerts", "2"}, {"alert detail", "enter"}, {"back", "esc"},
		{"alert configs", "c"}, {"config detail", "enter"}, {"back", "esc"}, {"back", "esc"},
		{"backups", "3"}, {"snapshots", "enter"}, {"restores", "tab"}, {"exports", "tab"}, {"buckets", "tab"}, {"schedule", "tab"}, {"compliance", "tab"},
		{"search", "4"}, {"search detail", "enter"}, {"search row", "j"}, {"search row", "j"}, {"search detail", "enter"}, {"analyzers", "A"}, {"back", "esc"},
		{"access logs", "5"}, {"raw line", "l"}, {"back", "esc"},
		{"migration", "6"},
		{"settings", "7"},
	}
	// Every pane the list above does not name by its key is visited too,
	// with its detail: a pane added later is poisoned like the rest.
	for i, r := range Panes()[7:] {
		visits = append(visits, struct{ name, keys string }{string(r.ID), strconv.Itoa(8 + i)},
			struct{ name, keys string }{string(r.ID) + " detail", "enter"}, struct{ name, keys string }{"back", "esc"})
	}
	visits = append(visits, []struct{ name, keys string }{
		{"help", "?"}, {"back", "esc"},
		{"picker", "@"}, {"back", "esc"},
		{"palette", ":"}, {"back", "esc"},
	}...)
	const profile = "poisoned"
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		client, err := apiclient.New(apiclient.Options{BaseURL: base, Auth: apiclient.DigestAuth("org-owner", "org-owner-secret"),
			Gate: apiclient.NewGate(nil), MaxRetries: -1})
		require.NoError(t, err)
		m, err := New(Options{Client: client, Profile: profile, Theme: "dark", Clock: func() time.Time { return viewstest.Start },
			State: &ContextStore{Path: filepath.Join(t.TempDir(), "context.json")}})
		require.NoError(t, err)
		view := &lastView{Model: m}
		start := time.Now()
		d := viewstest.NewProgramDriver(t, view, size[0], size[1])
		shown := map[string]bool{}
		for _, v := range visits {
			d.Press(v.keys)
			frame := view.get()
			if text := ansi.Strip(frame); strings.Contains(text, "evil") || strings.Contains(text, "the runbook") {
				shown[v.name] = true
			}
			for _, line := range strings.Split(frame, "\n") {
				if w := ansi.StringWidth(line); w > size[0] {
					t.Errorf("%dx%d %s: a line of width %d", size[0], size[1], v.name, w)
				}
			}
		}
		d.Quit()
		out := d.Output()
		for _, bad := range scanOutput(out, size[0], size[1], "dbadmin-tui: "+profile, d.Bells()) {
			t.Errorf("%dx%d: %s", size[0], size[1], bad)
		}
		t.Logf("%dx%d: %d steps in %v, %d frames drawn, %d KB written to the terminal; poisoned text visible in %d views",
			size[0], size[1], len(visits), time.Since(start).Round(time.Millisecond), view.count(), len(out)/1024, len(shown))
		// The poison reached the screen (as text) in every pane.
		for _, want := range []string{"triage", "alerts", "alert detail", "config detail", "snapshots", "restores", "exports", "search detail", "settings", "clusters"} {
			require.True(t, shown[want], "%dx%d: no poisoned text visible in %s", size[0], size[1], want)
		}
	}
}

// lastView keeps the frame the program last asked for, for the width check.
type lastView struct {
	*Model
	mu     sync.Mutex
	frame  string
	frames int
}

func (v *lastView) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := v.Model.Update(msg)
	return v, cmd
}

func (v *lastView) View() tea.View {
	view := v.Model.View()
	v.mu.Lock()
	v.frame = view.Content
	v.frames++
	v.mu.Unlock()
	return view
}

func (v *lastView) count() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.frames
}

func (v *lastView) get() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.frame
}

// The scan finds each hostile sequence on its own, inside a frame the
// renderer could have written, and lets that frame through without it.
func TestScanOutputFindsEachHostileSequence(t *testing.T) {
	frame := func(s string) []byte {
		return []byte("\x1b[?1049h\x1b[?25l\x1b]2;dbadmin-tui: p\a\x1b[1;1H\x1b[38;2;1;2;3mok " + s + "\x1b[m\x1b[2;5H\x1b[K\r\n\x1b[3;22r\x1bM\x1b[1;24r\x1b[12X\x1b[2T")
	}
	require.Empty(t, scanOutput(frame(""), 80, 24, "dbadmin-tui: p", 0))
	for name, s := range map[string]string{
		"OSC 8": "\x1b]8;;https://evil.example/x\x07link\x1b]8;;\x07", "OSC 52": "\x1b]52;c;cHduZWQ=\x07",
		"OSC 0": "\x1b]0;pwned-title\x07", "far cursor move": "\x1b[7777;7777H", "erase screen mode": "\x1b[3J",
		"scroll region": "\x1b[100;200r", "C1 CSI": "\xc2\x9b2J", "raw 8-bit CSI": "\x9b2J", "DCS": "\x1bPq#0;2\x1b\\",
		"APC": "\x1b_Gf=1\x1b\\", "bracketed-paste end": "\x1b[201~", "unknown private mode": "\x1b[?1000h",
		"bidi override": "\u202eevil", "isolate": "\u2066x", "NUL": "\x00", "C0": "\x01", "DEL": "\x7f", "NEL": "\u0085",
		"bell": "\a", "keypad mode": "\x1b=",
	} {
		require.NotEmpty(t, scanOutput(frame(s), 80, 24, "dbadmin-tui: p", 0), name)
	}
}
