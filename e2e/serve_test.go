package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/keygen"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

// `dbadmin-tui serve` driven by the system ssh client, each in its own tmux:
// the server in one, every person's ssh in another.

// served is a running `serve --demo`: its tmux session (stdout), its log
// (standard error: who came and went) and its files.
type served struct {
	*Session
	dir     string // the test's files: keys, team file, journal, host key
	log     string // the server's standard error
	sshAddr string
	port    string
	journal string
	team    string // the team file, when serveTeam made one
}

// member is a person of a test team: a name and a key pair on disk.
type member struct {
	name, key, pub string
	readOnly       bool
}

func requireSSH(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("no ssh client")
	}
}

// teamOf makes a key pair for each name and the team file listing them
// (profile org-owner; names starting with "ro-" read-only).
func teamOf(t *testing.T, dir string, names ...string) (string, []member) {
	t.Helper()
	var b strings.Builder
	var ms []member
	for _, n := range names {
		path := filepath.Join(dir, "key-"+n)
		kp, err := keygen.New(path, keygen.WithKeyType(keygen.Ed25519), keygen.WithWrite())
		if err != nil {
			t.Fatal(err)
		}
		m := member{name: n, key: path, pub: strings.TrimSpace(kp.AuthorizedKey()), readOnly: strings.HasPrefix(n, "ro-")}
		ms = append(ms, m)
		fmt.Fprintf(&b, "[[member]]\nname = %q\nkeys = [%q]\nprofile = \"org-owner\"\nread_only = %v\n\n", m.name, m.pub, m.readOnly)
	}
	team := filepath.Join(dir, "team.toml")
	if err := os.WriteFile(team, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return team, ms
}

// startServe runs `dbadmin-tui serve --demo` with args on free loopback
// ports and waits for its ssh line. dir keeps the host key and the journal
// across a restart.
func startServe(t *testing.T, dir string, args ...string) *served {
	t.Helper()
	simAddr := FreeLoopbackAddr(t)
	sshAddr := FreeLoopbackAddr(t)
	sv := &served{dir: dir, sshAddr: sshAddr, journal: filepath.Join(dir, "journal.jsonl")}
	_, sv.port, _ = strings.Cut(sshAddr, ":")
	args = append([]string{"serve", "--demo", "--demo-listen", simAddr, "--listen", sshAddr,
		"--host-key", filepath.Join(dir, "host_ed25519"), "--journal", sv.journal}, args...)
	sv.Session = Start(t, 300, 12, nil, args...)
	sv.demoURL = "http://" + simAddr
	sv.log = sv.stderr
	// The server logs who came and went on standard error: that is its
	// job, not a defect.
	t.Cleanup(func() {
		sv.stderr = ""
		if t.Failed() {
			t.Logf("the server's log:\n%s", sv.Log())
		}
	})
	sv.WaitFor("Paste this to come in", startWait)
	return sv
}

func (sv *served) Log() string {
	b, _ := os.ReadFile(sv.log)
	return string(b)
}

// waitLog waits for the server's log to match re.
func (sv *served) waitLog(t *testing.T, re string) string {
	t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(wait)
	for {
		if l := sv.Log(); rx.MatchString(l) {
			return l
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server's log never matched %q:\n%s", re, sv.Log())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// serveTeam starts `serve --demo` (with args) for a team of names, its keys
// and team file made in a fresh directory.
func serveTeam(t *testing.T, names []string, args ...string) (*served, []member) {
	t.Helper()
	requireSSH(t)
	dir := t.TempDir()
	team, ms := teamOf(t, dir, names...)
	sv := startServe(t, dir, append([]string{"--team", team}, args...)...)
	sv.team = team
	return sv, ms
}

// startCmd runs a shell command line in its own w x h tmux session; the
// pane stays after the command ends (its last words stay readable).
func startCmd(t *testing.T, w, h int, env []string, line string) *Session {
	t.Helper()
	RequireTmux(t)
	n := sessions.Add(1)
	s := &Session{t: t, socket: fmt.Sprintf("dbadmin-e2e-%d-%d", os.Getpid(), n), name: "ssh"}
	cmd := append([]string{"env"}, env...)
	cmd = append(cmd, "TERM=xterm-256color", "sh", "-c", line+`; echo "[ssh exited $?]"; sleep 600`)
	t.Cleanup(func() {
		_, _ = s.tmux("kill-server")
		_ = os.Remove(s.socketPath())
	})
	if out, err := s.tmux(append([]string{"new-session", "-d", "-s", s.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h)}, cmd...)...); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	return s
}

// ssh connects member m to the server in a w x h terminal.
func (sv *served) ssh(t *testing.T, m member, w, h int) *Session {
	t.Helper()
	return startCmd(t, w, h, []string{"HOME=" + t.TempDir()}, fmt.Sprintf(
		"ssh -p %s -i %s -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR %s@127.0.0.1",
		sv.port, m.key, m.name))
}

// TestServeDemoLinePastedAsPrinted runs `serve --demo` with no team file
// and pastes the printed line, as printed, for a user with no SSH key of
// their own (an empty HOME): the dashboard comes up. The demo's files are
// owner-only.
func TestServeDemoLinePastedAsPrinted(t *testing.T) {
	requireSSH(t)
	state := t.TempDir()
	simAddr, sshAddr := FreeLoopbackAddr(t), FreeLoopbackAddr(t)
	srv := Start(t, 300, 12, []string{"XDG_STATE_HOME=" + state},
		"serve", "--demo", "--demo-listen", simAddr, "--listen", sshAddr)
	t.Cleanup(func() { srv.stderr = "" })
	screen := srv.WaitFor("demo@localhost", startWait)
	line := ""
	for _, l := range strings.Split(screen, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "ssh ") {
			line = strings.TrimSpace(l)
		}
	}
	if line == "" {
		t.Fatalf("no ssh line printed:\n%s", screen)
	}
	if !strings.Contains(line, "-p "+strings.Split(sshAddr, ":")[1]) {
		t.Fatalf("the line %q does not name the port of %s", line, sshAddr)
	}
	home := t.TempDir() // no ~/.ssh: no key, no known_hosts
	c := startCmd(t, 100, 30, []string{"HOME=" + home}, line)
	c.WaitFor("Organization Owner", startWait)
	c.WaitFor("STATUS", wait)
	if _, err := os.Stat(filepath.Join(home, ".ssh")); err == nil {
		t.Errorf("the pasted line wrote into the user's ~/.ssh")
	}
	// The journal is made, owner-only, by the first write (journal's own
	// tests): nothing was written yet.
	if _, err := os.Stat(filepath.Join(state, "dbadmin-tui", "journal.jsonl")); !os.IsNotExist(err) {
		t.Errorf("a journal before any write: %v", err)
	}
	for _, f := range []string{"demo_ssh_host_ed25519", "demo/demo_ed25519", "demo/team.toml"} {
		st, err := os.Stat(filepath.Join(state, "dbadmin-tui", f))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s is mode %04o: want owner-only", f, st.Mode().Perm())
		}
	}
	c.SendKeys("q")
	c.WaitFor("[ssh exited 0]", wait)
}

// TestServeTwoThenFiveSessions: five people with their own keys; each
// dashboard is sized to its own terminal and its header names the others;
// the server logs who came and went.
func TestServeTwoThenFiveSessions(t *testing.T) {
	sv, ms := serveTeam(t, []string{"alice", "bob", "carol", "dave", "erin"})

	a := sv.ssh(t, ms[0], 80, 24)
	b := sv.ssh(t, ms[1], 140, 30)
	a.WaitFor("+1 here", startWait) // 80 columns: the short form
	b.WaitFor("with alice", startWait)
	// Each sized to its own terminal: at 80 columns the tabs shrink.
	a.WaitFor("5 Acc  ", wait)
	b.WaitFor("5 Access logs", wait)

	// Presence on the rows: while one has the acknowledge dialog open, the
	// other's row says who, at 140 and at 80 columns; esc takes it away,
	// and nothing was sent.
	a.WaitFor("▸  ● ", wait)
	b.WaitFor("▸  OPEN", wait)
	seesAcknowledging(a, b, "alice")
	seesAcknowledging(b, a, "bob")
	// The same on the Triage board (WHAT at 80 columns: "bob:
	// acknowledging · CLUST…").
	a.SendFast("1")
	b.SendFast("1")
	a.WaitFor("Triage ·", wait)
	b.WaitFor("Triage ·", wait)
	a.WaitFor("▸ ", wait)
	b.WaitFor("▸ ", wait)
	seesAcknowledging(b, a, "bob")
	a.SendFast("2")
	b.SendFast("2")
	a.WaitFor("EVENT TYPE", wait)
	b.WaitFor("EVENT TYPE", wait)
	if n := alertPatches(sv.Session); n != 0 {
		t.Fatalf("%d PATCHes reached the server: want none", n)
	}

	var rest []*Session
	for _, m := range ms[2:] {
		rest = append(rest, sv.ssh(t, m, 100, 24))
	}
	b.WaitFor("with alice, carol, dave, erin", wait)
	rest[2].WaitFor("+4 here", wait) // 100 columns
	a.WaitFor("+4", wait)
	for _, s := range append([]*Session{a, b}, rest...) {
		s.WaitFor("EVENT TYPE", wait)
	}
	sv.waitLog(t, `came who=erin key=SHA256:`)

	b.SendKeys("q")
	b.WaitFor("[ssh exited 0]", wait)
	sv.waitLog(t, `went who=bob`)
	a.WaitFor("+3", wait)

	// carol's connection drops with her dialog open: her mark goes.
	rest[0].SendFast("a")
	rest[0].WaitFor("Acknowledge until", wait)
	a.WaitFor("carol: acknowledging", wait)
	_, _ = rest[0].tmux("kill-server")
	sv.waitLog(t, `went who=carol`)
	a.WaitGone("carol: acknowledging", wait)
	a.WaitFor("+2", wait)
}

// seesAcknowledging opens the acknowledge dialog on opener and waits for
// watcher's row to say who is acknowledging; esc closes the dialog and the
// mark goes.
func seesAcknowledging(opener, watcher *Session, who string) {
	opener.SendFast("a")
	opener.WaitFor("Acknowledge until", wait)
	watcher.WaitFor(who+": acknowledging", wait)
	opener.SendFast("Escape")
	opener.WaitGone("Acknowledge until", wait)
	watcher.WaitGone(who+": acknowledging", wait)
}

// TestServeRefusesUnknownKeyAndPasswords: a key the team file does not
// list is refused before any screen, and no password or
// keyboard-interactive login is offered.
func TestServeRefusesUnknownKeyAndPasswords(t *testing.T) {
	sv, _ := serveTeam(t, []string{"alice"})
	_, strangers := teamOf(t, t.TempDir(), "mallory")

	c := sv.ssh(t, strangers[0], 100, 24)
	screen := c.WaitFor("[ssh exited 255]", wait)
	if !strings.Contains(screen, "Permission denied (publickey)") {
		t.Fatalf("want a publickey-only refusal:\n%s", screen)
	}
	if strings.Contains(screen, "STATUS") {
		t.Fatalf("a screen was drawn for an unknown key:\n%s", screen)
	}
	sv.waitLog(t, `refused user=mallory key=SHA256:`)

	p := startCmd(t, 100, 24, []string{"HOME=" + t.TempDir()}, fmt.Sprintf(
		"ssh -p %s -o PreferredAuthentications=password,keyboard-interactive -o PubkeyAuthentication=no -o NumberOfPasswordPrompts=1 -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null alice@127.0.0.1 </dev/null",
		sv.port))
	screen = p.WaitFor("[ssh exited 255]", wait)
	if !strings.Contains(screen, "Permission denied (publickey)") || strings.Contains(screen, "password:") {
		t.Fatalf("a password login was offered:\n%s", screen)
	}
	if strings.Contains(sv.Log(), "came") {
		t.Fatalf("someone came in:\n%s", sv.Log())
	}
}

// TestServeReadOnlyMemberWritesNothing: a read_only member's acknowledge is
// refused, and the simulator saw no write from the server at all.
func TestServeReadOnlyMemberWritesNothing(t *testing.T) {
	sv, ms := serveTeam(t, []string{"ro-lead"})
	c := sv.ssh(t, ms[0], 120, 30)
	c.WaitFor("READ-ONLY", startWait)
	c.WaitFor("▸  OPEN", wait)
	c.SendFast("j", "a", "u")
	c.WaitFor("read-only", wait)
	if screen := c.Capture(); strings.Contains(screen, "Acknowledge until") {
		t.Fatalf("an acknowledge dialog opened for a read-only member:\n%s", screen)
	}
	// The palette's :ro cannot lift the team file's lock either.
	c.SendFast(":", "ro", "Enter")
	c.WaitFor("READ-ONLY", wait)
	wantOnlyReads(t, sv.SimRequests(), func(r apisim.RequestRecord) bool {
		return r.Identity == "org-owner" && strings.HasPrefix(r.Path, "/api/atlas/v2/")
	}, "the server, for a read-only member,")
}

// TestServeRaceOneAcknowledgementThenJournalAfterRestart: two people
// acknowledge the same alert at the same moment: one PATCH reaches the
// server; the other is asked, on their screen, and acknowledges only when
// they repeat it. Then the server stops with a notice on every screen, and
// after a restart the journal has both writes, with who and what.
func TestServeRaceOneAcknowledgementThenJournalAfterRestart(t *testing.T) {
	sv, ms := serveTeam(t, []string{"alice", "bob"})
	a := sv.ssh(t, ms[0], 120, 30)
	b := sv.ssh(t, ms[1], 120, 30)
	for _, s := range []*Session{a, b} {
		s.WaitFor("▸  OPEN", startWait)
		s.SendFast("j", "a")
		s.WaitFor("Acknowledge until", wait)
		s.SendFast("race-e2e")
		s.WaitFor("race-e2e", wait)
	}
	var wg sync.WaitGroup
	for _, s := range []*Session{a, b} {
		wg.Add(1)
		go func() { defer wg.Done(); s.SendFast("Enter") }()
	}
	wg.Wait()
	// One acknowledges; the other is told who is on it.
	asked := regexp.MustCompile(`(alice|bob) (is acknowledging this|acknowledged this)`)
	waitEither := func() (winner, loser *Session, who string) {
		deadline := time.Now().Add(wait)
		for time.Now().Before(deadline) {
			sa, sb := a.Capture(), b.Capture()
			if m := asked.FindStringSubmatch(sb); m != nil && m[1] == "alice" {
				return a, b, "alice"
			}
			if m := asked.FindStringSubmatch(sa); m != nil && m[1] == "bob" {
				return b, a, "bob"
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("nobody was asked:\nalice:\n%s\nbob:\n%s", a.Capture(), b.Capture())
		return nil, nil, ""
	}
	winner, loser, who := waitEither()
	winner.WaitFor("acknowledged until", wait)
	if n := alertPatches(sv.Session); n != 1 {
		t.Fatalf("%d PATCHes reached the server: want 1", n)
	}
	// Both act as the profile's API user: the row names the person, on
	// the other screen too, at once (the Alerts pane polls every 15 s).
	winner.WaitFor("by "+who, wait)
	loser.WaitFor("by "+who, 5*time.Second)
	if !strings.Contains(loser.Capture(), who+" acknowledged this") {
		// It was under way when the loser sent: sent again (the dialog
		// stays open) now that it is done, the loser hears who and when,
		// and nothing is sent.
		loser.SendFast("Enter")
		loser.WaitFor(who+" acknowledged this", wait)
		if n := alertPatches(sv.Session); n != 1 {
			t.Fatalf("%d PATCHes after the question: want 1", n)
		}
	}
	// Repeating it is the answer: yes, again.
	loser.SendFast("Enter")
	loser.WaitFor("acknowledged until", wait)
	if n := alertPatches(sv.Session); n != 2 {
		t.Fatalf("%d PATCHes after the repeat: want 2", n)
	}

	// SIGTERM: every session is told; the journal is closed.
	sv.SendKeys("C-c")
	for _, s := range []*Session{a, b} {
		s.WaitFor("the server is stopping", wait)
		s.WaitFor("[ssh exited", wait)
	}
	sv.waitLog(t, `msg=stopped`)

	sv2 := startServe(t, sv.dir, "--team", sv.team)
	c := sv2.ssh(t, ms[0], 160, 40)
	c.WaitFor("STATUS", startWait)
	c.SendFast(":", "journal", "Enter")
	screen := c.WaitFor("Journal: this shift", wait)
	if got := strings.Count(screen, "acknowledgeAlert"); got < 3 {
		t.Fatalf("the journal shows %d acknowledgeAlert lines: want the two applied and the refusals:\n%s", got, screen)
	}

	out, err := exec.Command(Binary(t), "journal", "--since", "1h", "--journal", sv.journal).CombinedOutput()
	if err != nil {
		t.Fatalf("journal: %v\n%s", err, out)
	}
	text := string(out)
	for _, want := range []string{"alice", "bob", "Applied: acknowledgeAlert 2", "not sent", "race-e2e"} {
		if !strings.Contains(text, want) {
			t.Errorf("the handoff lacks %q:\n%s", want, text)
		}
	}
}

// TestServeIdleAndCap: a session with no key for --idle is closed with a
// notice; a session beyond --max-sessions is refused with the reason.
func TestServeIdleAndCap(t *testing.T) {
	sv, ms := serveTeam(t, []string{"alice", "bob"}, "--idle", "3s", "--max-sessions", "1")
	a := sv.ssh(t, ms[0], 100, 24)
	a.WaitFor("STATUS", startWait)
	b := sv.ssh(t, ms[1], 100, 24)
	b.WaitFor("all 1 sessions this server takes are in use", wait)
	a.WaitFor("closed after 3s without a key", wait)
	sv.waitLog(t, `went who=alice .*why="closed after 3s without a key"`)
}
