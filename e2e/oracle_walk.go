package e2e

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// oracleStep is one step of a walk: a resize, or keys sent at once (as a
// user types them, no pause between). The walk and its replay run the same
// steps; the judge reads only the screen and the writes, never the walk's
// intent, so a replay is judged as the walk was.
type oracleStep struct {
	Keys   []string `json:"k,omitempty"`
	Resize []int    `json:"r,omitempty"`
	// Want, in a scripted walk, is text the step waits for after its keys
	// (a pane or dialog that loads), before the screen settles.
	Want string `json:"w,omitempty"`
}

// oracle runs one dashboard against one fresh oracleHost.
type oracle struct {
	t      testing.TB
	seed   int64
	h      *oracleHost
	s      *Session
	judge  *judge
	screen string
	seen   int // writes judged so far
	steps  []oracleStep
	// Fails are the refused writes; the walk stops at the first step
	// that has one.
	Fails []string
	// dialogAge counts the steps a dialog has been open (the walk then
	// answers it).
	dialogAge int
	// answerNext: the walk filled a form the way a user who means it
	// does; its next step submits it.
	answerNext bool
	pid        string // the program's, for idle
}

func newOracle(t testing.TB, seed int64, mutant func(*oracleHost, *sentWrite) bool) *oracle {
	t.Helper()
	h := startOracleHost(t, mutant)
	o := &oracle{t: t, seed: seed, h: h}
	o.s = startOracleDashboard(t, h, 120, 40, "--project", "payments", "--pane", "alerts")
	o.s.WaitFor(" alerts · ", startWait)
	o.judge = newJudge(ownerClient(t, h.URL(), 3), oracleEpoch)
	o.screen = o.settle()
	return o
}

// settle waits until the screen (less its header line, whose age ticks)
// is the same over 200 ms, and returns it: every key sent has been drawn.
func (o *oracle) settle() string {
	strip := func(s string) string {
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			return s[i+1:]
		}
		return s
	}
	deadline := time.Now().Add(20 * time.Second)
	last, same := "", 0
	for {
		sc := o.s.Capture()
		if strip(sc) == strip(last) && sc != "" {
			same++
		} else {
			same = 0
		}
		last = sc
		if same >= 5 && !strings.Contains(sc, "submitting…") && o.idle() {
			return sc
		}
		if time.Now().After(deadline) {
			if !o.s.Alive() {
				o.t.Fatalf("seed %d: the program ended%s", o.seed, o.s.ended())
			}
			return sc
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// idle says whether the program is waiting (no thread of it running or
// runnable, as Linux's /proc shows it): a screen that has not changed for
// 200 ms may only mean the program has not been given the CPU yet, with
// keys still to draw. Where /proc cannot be read, the screen alone decides.
func (o *oracle) idle() bool {
	if o.pid == "" {
		out, err := o.s.tmux("display-message", "-p", "-t", o.s.name, "#{pane_pid}")
		if err != nil {
			return true
		}
		o.pid = strings.TrimSpace(out)
	}
	tasks, err := os.ReadDir("/proc/" + o.pid + "/task")
	if err != nil {
		return true
	}
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/" + o.pid + "/task/" + t.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) STATE ...: comm may hold spaces, the state follows
		// its closing parenthesis.
		st := string(b)
		if i := strings.LastIndexByte(st, ')'); i >= 0 && i+2 < len(st) && st[i+2] == 'R' {
			return false
		}
	}
	return true
}

// run does one step, judges the writes it caused and records it. Keys
// before an answering key (enter, y) are sent and drawn first: the judge
// holds a write to the screen the answer was given on, so a step that
// types into a form and submits it reads the form as it was submitted.
func (o *oracle) run(st oracleStep) {
	o.steps = append(o.steps, st)
	if len(st.Resize) == 2 {
		o.s.Resize(st.Resize[0], st.Resize[1])
	}
	keys := st.Keys
	if len(keys) == 0 {
		o.segment(nil, st)
	}
	for len(keys) > 0 {
		n := 1
		for n < len(keys) && !answers(keys[n:n+1]) {
			n++
		}
		last := n == len(keys)
		seg := keys[:n]
		keys = keys[n:]
		if !last {
			o.segment(seg, oracleStep{Keys: seg})
			if len(o.Fails) > 0 {
				return
			}
			continue
		}
		o.segment(seg, st)
	}
}

// segment sends keys at once (a step's Want waited for after them), lets
// the screen and the writes settle, and judges the writes against the
// dialog that was on screen before.
func (o *oracle) segment(keys []string, st oracleStep) {
	before := o.screen
	o.judge.observe(before)
	if len(keys) > 0 {
		send := keys
		if strings.HasPrefix(send[0], "-") {
			send = append([]string{"--"}, send...) // a key, not a flag of send-keys
		}
		o.s.SendFast(send...)
	}
	if st.Want != "" {
		o.s.WaitFor(st.Want, startWait)
	}
	o.screen = o.settle()
	if !o.h.quiet(400*time.Millisecond, 20*time.Second) {
		o.t.Logf("seed %d step %d: writes still in flight after 20 s", o.seed, len(o.steps))
	}
	writes := o.h.Writes(o.seen)
	o.seen += len(writes)
	if len(writes) > 0 {
		o.screen = o.settle()
	}
	confirmed := dialogOf(before) != nil && len(keys) > 0 && answers(keys[:1])
	if oracleVerbose {
		title := ""
		if d := dialogOf(o.screen); d != nil {
			title = d.Title
		}
		o.t.Logf("step %d %v %v -> %s [%s] %d writes", len(o.steps), keys, st.Resize, paneOf(o.screen), title, len(writes))
		for _, w := range writes {
			o.t.Logf("    %s -> %d", w, w.Status)
		}
		if os.Getenv("ORACLE_VERBOSE") == "2" {
			o.t.Logf("\n%s", o.screen)
		}
	}
	for _, v := range o.judge.check(writes, confirmed) {
		o.Fails = append(o.Fails, fmt.Sprintf("%s\n    %s", v.Write, v.Why))
	}
	if why := checkJump(before, o.screen, keys); why != "" {
		o.Fails = append(o.Fails, "a Triage jump: "+why)
	}
	if len(o.Fails) > 0 {
		d := dialogOf(before)
		what := "no dialog"
		if d != nil {
			what = "the dialog:\n" + d.Text()
		}
		o.Fails = append(o.Fails, fmt.Sprintf("the screen before the keys %q showed %s", keys, what))
	}
	if dialogOf(o.screen) == nil {
		o.answerNext = false
		if dialogOf(before) != nil && !confirmed {
			o.judge.forget() // cancelled: nothing may follow
		}
		o.dialogAge = 0
	} else if len(keys) > 0 {
		o.dialogAge++
	}
}

// oracleVerbose logs every step (ORACLE_VERBOSE=1; 2 adds the screen).
var oracleVerbose = os.Getenv("ORACLE_VERBOSE") != ""

// answers says whether keys can answer a dialog: enter, or y on a
// question.
func answers(keys []string) bool {
	for _, k := range keys {
		if k == "Enter" || k == "y" || k == "Y" || k == "C-j" {
			return true
		}
	}
	return false
}

// Replay is the steps so far, as ORACLE_REPLAY takes them.
func (o *oracle) Replay() string {
	b, _ := json.Marshal(o.steps)
	return string(b)
}

// failure is the message a failed walk gives: what was refused, then how
// to run it again.
func (o *oracle) failure() string {
	return fmt.Sprintf("seed %d, step %d: the oracle refused:\n  %s\nreplay:\n  ORACLE_SEED=%d go test ./e2e -run 'TestOracleWalks$' -v\n  ORACLE_REPLAY='%s' go test ./e2e -run 'TestOracleWalks$' -v",
		o.seed, len(o.steps), strings.Join(o.Fails, "\n  "), o.seed, o.Replay())
}

// --- the walk: what a user might do next, from what is on screen ---

var (
	vocabulary = []string{"disk", "ops", "x", "checking the primary", "OPS-17", "é", "ünï", "7", "30", "0", "-1", "3",
		"12 days", "2 weeks", "1 year", "45 days", "abc", "2026-12-01 10:30", "2026-11-27 13:00", "2026-11-26 09:00",
		"2026-11-28T06:00:00Z", "2126-01-01 00:00", "next tuesday", "  ", "payments-rs", "a"}
	moveKeys  = []string{"Tab", "BTab", "Left", "Right", "Up", "Down", "Space", "BSpace", "BSpace", "Home", "End", "C-u"}
	listKeys  = []string{"j", "k", "Down", "Up", "g", "G", "PageDown", "PageUp"}
	sizes     = [][]int{{80, 24}, {120, 40}, {200, 60}, {100, 30}}
	alertRows = regexp.MustCompile(`(?m)^\s*\d+ alerts`)
)

// pane guesses the pane on screen from its own lines.
func paneOf(screen string) string {
	switch {
	case strings.Contains(screen, "Triage · "):
		return "triage"
	case alertRows.MatchString(screen) || strings.Contains(screen, "alert configurations"):
		return "alerts"
	case strings.Contains(screen, "Backups · pick a cluster"):
		return "backups-clusters"
	case strings.Contains(screen, "Backups · "):
		return "backups"
	case strings.Contains(screen, "AUDITING"):
		return "settings"
	case strings.Contains(screen, "Search indexes · "):
		return "search"
	case strings.Contains(screen, "1 Link token"):
		return "migration"
	}
	return "other"
}

// next picks the next step from the screen on hand.
func (o *oracle) next(r *rand.Rand) oracleStep {
	pick := func(xs []string) string { return xs[r.Intn(len(xs))] }
	if r.Intn(25) == 0 {
		sz := sizes[r.Intn(len(sizes))]
		return oracleStep{Resize: []int{sz[0], sz[1]}}
	}
	if d := dialogOf(o.screen); d != nil {
		flat := strings.Join(strings.Fields(d.Text()), " ")
		if m := typedRe.FindStringSubmatch(flat); m != nil {
			switch r.Intn(5) {
			case 0:
				return oracleStep{Keys: []string{"Escape"}}
			case 1:
				return oracleStep{Keys: []string{"wrong", "Enter"}}
			}
			return oracleStep{Keys: []string{m[1], "Enter"}}
		}
		if len(d.fields()) <= 1 || strings.HasSuffix(d.Title, "?") {
			// A question: yes, no, enter (its default is No), or esc.
			return oracleStep{Keys: []string{pick([]string{"y", "y", "y", "n", "Enter", "Escape", "Tab"})}}
		}
		if o.answerNext {
			o.answerNext = false
			return oracleStep{Keys: []string{"Enter"}}
		}
		last := o.steps[len(o.steps)-1].Keys
		refused := o.dialogAge > 0 && answers(last)
		switch n := r.Intn(10); {
		case refused && n < 5, o.dialogAge > 8:
			// The form refused its answer, or has been open long: give up.
			return oracleStep{Keys: []string{"Escape"}}
		case n < 3 && o.dialogAge > 0:
			return oracleStep{Keys: []string{"Enter"}}
		case n < 7:
			if fill := goodFill(d.Title, r); fill != nil {
				// Answered next step, once the screen shows what was typed.
				o.answerNext = true
				if len(fill) > 0 {
					return oracleStep{Keys: fill}
				}
				return oracleStep{Keys: []string{"Enter"}}
			}
			fallthrough
		default:
			var keys []string
			for range 1 + r.Intn(5) {
				if r.Intn(3) == 0 {
					keys = append(keys, pick(vocabulary))
				} else {
					keys = append(keys, pick(moveKeys))
				}
			}
			return oracleStep{Keys: keys}
		}
	}
	if r.Intn(10) == 0 {
		return oracleStep{Keys: []string{pick([]string{"1", "1", "2", "2", "3", "3", "7", "4", "4", "5", "6"})}}
	}
	if r.Intn(16) == 0 {
		return oracleStep{Keys: []string{"Escape"}}
	}
	// Per pane: the keys that lead to a write (asked for half the time),
	// and the ones that change what the next write acts on.
	var writes, other [][]string
	switch paneOf(o.screen) {
	case "alerts":
		writes = [][]string{{"a"}, {"a"}, {"a"}, {"Space", "a"}, {"Space", "j", "Space", "a"}, {"j", "C-Space", "a"}, {"u"}, {"Space", "u"}, {"Enter", "a"}}
		other = [][]string{{"s"}, {"Space", "j"}, {"Space", "j", "Space"}, {"C-a"}, {"C-\\"}, {"j", "C-Space"},
			{"/", "C-u", "OUTSIDE", "Enter"}, {"/", "C-u", "payments-rs", "Enter"}, {"/", "C-u", "!NO_PRIMARY", "Enter"}, {"/", "Escape"},
			{"o"}, {"O"}, {"Enter"}, {"Escape"}, {"c"}}
	case "triage":
		writes = [][]string{{"a"}, {"a"}, {"Space", "j", "Space", "a"}, {"Enter"}, {"Enter"}, {"j", "Enter"}}
		other = [][]string{{"Space", "j"}, {"C-\\"}, {"/", "C-u", "payments", "Enter"}, {"/", "C-u", "NO_PRIMARY", "Enter"},
			{"/", "Escape"}, {"o"}, {"O"}}
	case "backups-clusters":
		writes = [][]string{{"Enter"}, {"j", "j", "j", "Enter"}, {"j", "Enter"}, {"j", "j", "Enter"}}
	case "backups":
		writes = [][]string{{"n"}, {"n"}, {"j", "e"}, {"e"}, {"d"}, {"j", "d"}, {"j", "R"}, {"R"}, {"j", "j", "R"},
			{"J", "x"}, {"J", "j", "x"}, {"S", "j", "R"}}
		other = [][]string{{"S"}, {"J"}, {"Escape"}, {"o"}, {"Tab"}}
	case "settings":
		writes = [][]string{{"a"}, {"d"}, {"n"}, {"R", "z"}, {"R", "j", "z"}, {"R", "j", "j", "x"}}
		other = [][]string{{"Tab"}, {"j"}}
	case "migration":
		writes = [][]string{{"Enter"}, {"j", "Enter"}, {"v"}, {"v"}, {"m"}, {"m"}, {"D"}, {"C"}, {"l"}}
		other = [][]string{{"Left"}, {"Right"}, {"Escape"}}
	case "search":
		writes = [][]string{{"d"}, {"j", "j", "j", "d"}, {"G", "d"}, {"j", "j", "j", "j", "j", "j", "d"}}
		other = [][]string{{"Enter"}, {"Escape"}}
	default:
		other = [][]string{{"2"}, {"3"}, {"1"}, {"Escape"}}
	}
	switch n := r.Intn(10); {
	case n < 5 && len(writes) > 0:
		return oracleStep{Keys: writes[r.Intn(len(writes))]}
	case n < 8 && len(other) > 0:
		return oracleStep{Keys: other[r.Intn(len(other))]}
	}
	var keys []string
	for range 1 + r.Intn(4) {
		keys = append(keys, pick(listKeys))
	}
	return oracleStep{Keys: keys}
}

// goodFill is keys a user who means it types into a form: a valid
// answer, reached from where the form puts the cursor.
func goodFill(title string, r *rand.Rand) []string {
	var fills [][]string
	switch {
	case strings.HasPrefix(title, "Acknowledge "):
		// The cursor starts in Comment; Until is above it, the choice
		// above that.
		fills = [][]string{{"looking"}, {"disk full", "BTab", "2026-12-01 10:30"}, {"BTab", "BTab", "Right"},
			{"BTab", "BTab", "Left"}, {"BTab", "BTab", "Right", "Right"}, {"BTab", "2026-11-28T06:00:00Z"},
			{"x", "BTab", "BTab", "Left", "Tab", "2026-11-29 08:15"}, {"BTab", "BTab", "Space"}}
	case strings.HasPrefix(title, "Unacknowledge "):
		fills = [][]string{{"resolved"}, {}}
	case strings.HasPrefix(title, "On-demand snapshot"):
		fills = [][]string{{"before deploy", "Tab", "C-u", "5"}, {"Tab", "C-u", "14"}, {"nightly"}}
	case strings.HasPrefix(title, "Expiration of snapshot"):
		fills = [][]string{{"Down"}, {"Down", "Down"}, {"Down", "Down", "Down", "Down"}, {"Tab", "45 days"}, {"Tab", "10 weeks"}}
	case strings.HasPrefix(title, "New access role"):
		fills = [][]string{{}, {"Right"}, {"Right", "Right"}, {"Right", "Tab", "app-1", "Tab", "sp-1", "Tab", "tenant-1"}}
	case strings.HasPrefix(title, "Authorize AWS role"):
		fills = [][]string{{"C-u", "arn:aws:iam::123456789012:role/atlas-oracle"}, {}}
	case strings.HasPrefix(title, "Check migration "):
		fills = [][]string{{}, {}, {"Tab", "Right"}, {"Tab", "Tab", "Tab", "Tab", "Space"}, {"BTab", "Right"}}
	case strings.Contains(title, "(1/3)"):
		fills = [][]string{{}, {"Right"}, {"Tab", "Right", "Right"}, {"Tab", "Right"}}
	case strings.Contains(title, "(2/3)"):
		fills = [][]string{{"Down"}, {"Down", "Down"}, {"Up"}}
	}
	if len(fills) == 0 {
		return nil
	}
	return fills[r.Intn(len(fills))]
}

// walk runs n random steps from seed, stopping at the first refused write.
func (o *oracle) walk(n int) {
	r := rand.New(rand.NewSource(o.seed))
	for range n {
		o.run(o.next(r))
		if len(o.Fails) > 0 {
			return
		}
	}
}

// replay runs the given steps.
func (o *oracle) replay(steps []oracleStep) {
	for _, st := range steps {
		o.run(st)
		if len(o.Fails) > 0 {
			return
		}
	}
}
