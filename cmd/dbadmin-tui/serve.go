package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/keygen"
	gossh "golang.org/x/crypto/ssh"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/config"
	"github.com/dbadmin-tui/dbadmin-tui/journal"
	"github.com/dbadmin-tui/dbadmin-tui/serve"
	"github.com/dbadmin-tui/dbadmin-tui/ui"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

type serveFlags struct {
	listen, team, hostKey, configPath, journalPath string
	idle, shareWindow, ackWindow                   time.Duration
	maxSessions                                    int
	demo                                           bool
	demoSpeed                                      float64
	demoListen                                     string
}

func serveUsage() string {
	return `Usage: dbadmin-tui serve [flags]

Serves the dashboard over SSH to the people of a team file: each session gets
its own dashboard; the sessions of one profile share one client, one request
budget and one copy of what was read.

  --team PATH          the team file (default $XDG_CONFIG_HOME/dbadmin-tui/team.toml),
                       owner-only: [[member]] name, keys, profile, read_only
  --listen ADDR        SSH address (default :2222; --demo: 127.0.0.1:2222)
  --host-key PATH      host key, generated once (default $XDG_STATE_HOME/dbadmin-tui/ssh_host_ed25519)
  --config PATH        our config file, for the members' profiles
  --journal PATH       the write journal (default $XDG_STATE_HOME/dbadmin-tui/journal.jsonl)
  --idle D             close a session after D without a key (default 30m; 0: never)
  --max-sessions N     refuse sessions beyond N (default 50)
  --share-window D     reuse a read of the same thing for D across sessions (default 10s; a pane's
                       poll takes a copy up to its poll interval old; 0: in-flight only)
  --ack-window D       ask before acknowledging what someone else did within D (default 5m)
  --demo               the built-in simulator and a demo team; prints the ssh line to paste
  --demo-speed N       demo clock speed-up (default 10)
`
}

func parseServeFlags(args []string) (serveFlags, error) {
	var f serveFlags
	fs := flag.NewFlagSet("dbadmin-tui serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.listen, "listen", "", "")
	fs.StringVar(&f.team, "team", "", "")
	fs.StringVar(&f.hostKey, "host-key", "", "")
	fs.StringVar(&f.configPath, "config", "", "")
	fs.StringVar(&f.journalPath, "journal", "", "")
	fs.DurationVar(&f.idle, "idle", 30*time.Minute, "")
	fs.DurationVar(&f.shareWindow, "share-window", 10*time.Second, "")
	fs.DurationVar(&f.ackWindow, "ack-window", 5*time.Minute, "")
	fs.IntVar(&f.maxSessions, "max-sessions", 50, "")
	fs.BoolVar(&f.demo, "demo", false, "")
	fs.Float64Var(&f.demoSpeed, "demo-speed", 10, "")
	fs.StringVar(&f.demoListen, "demo-listen", defaultDemoListen, "")
	if err := parseArgs(fs, args); err != nil {
		return f, err
	}
	switch {
	case f.idle < 0 || f.shareWindow < 0 || f.ackWindow < 0:
		return f, errors.New("--idle, --share-window and --ack-window must not be negative")
	case f.maxSessions < 0:
		return f, errors.New("--max-sessions must not be negative")
	case f.demoSpeed <= 0:
		return f, errors.New("--demo-speed must be positive")
	case f.demo && f.configPath != "":
		return f, errors.New("--demo runs its own server: drop --config")
	}
	if f.listen == "" {
		f.listen = ":2222"
		if f.demo {
			f.listen = "127.0.0.1:2222"
		}
	}
	if _, _, err := net.SplitHostPort(f.listen); err != nil {
		return f, fmt.Errorf("--listen %q: want HOST:PORT or :PORT", f.listen)
	}
	if f.demo {
		if err := checkDemoListen(f.listen); err != nil {
			return f, fmt.Errorf("--listen: %w", errors.New(strings.TrimPrefix(err.Error(), "--demo-listen ")))
		}
	}
	return f, nil
}

// identity is one upstream identity (a profile): one client, its
// scheduler and its ReadShare, shared by every session that uses it.
type identity struct {
	client *apiclient.Client
	roles  []catalog.Assignment
	keys   map[string][]string // the profile's [keys] overrides
	opts   ui.Options          // the template of its sessions' options (no keymap: each its own)
}

type serveApp struct {
	f        serveFlags
	team     *serve.Team
	journal  *journal.Journal
	log      *slog.Logger
	getenv   func(string) string
	panes    views.Registry
	sim      *apisim.Server
	simBase  string
	demoKey  string // the demo's private key file
	known    string // the demo's known_hosts file
	mu       sync.Mutex
	ids      map[string]*identity
	hub      *serve.Hub
	closeAll []func()
}

func runServe(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	f, err := parseServeFlags(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, serveUsage())
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "dbadmin-tui serve: %v (see dbadmin-tui serve --help)\n", err)
		return 2
	}
	// An editor would run here, on the server, with its shell escapes.
	views.RefuseEditor("no editor under serve: it would run on the server")
	a := &serveApp{f: f, getenv: getenv, panes: ui.Panes(), ids: map[string]*identity{},
		log: slog.New(slog.NewTextHandler(stderr, nil))}
	defer func() {
		for i := len(a.closeAll) - 1; i >= 0; i-- {
			a.closeAll[i]()
		}
	}()
	if err := a.start(); err != nil {
		fmt.Fprintf(stderr, "dbadmin-tui serve: %v\n", err)
		return 1
	}
	a.hub = serve.NewHub()
	a.hub.Window = f.ackWindow
	if a.sim != nil {
		a.hub.SetClock(a.sim.Now)
	}
	srv, err := serve.New(serve.Options{Team: a.team, HostKeyPath: a.hostKeyPath(), Dashboard: a.dashboard,
		IdleTimeout: f.idle, MaxSessions: f.maxSessions, Hub: a.hub, Log: a.log,
		Notify: func(reload bool) tea.Msg { return ui.PresenceMsg{Reload: reload} }})
	if err != nil {
		fmt.Fprintf(stderr, "dbadmin-tui serve: %v\n", err)
		return 1
	}
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		fmt.Fprintf(stderr, "dbadmin-tui serve: %v\n", err)
		return 1
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if f.demo {
		if err := a.writeKnownHosts(port); err != nil {
			fmt.Fprintf(stderr, "dbadmin-tui serve: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "dbadmin-tui serve --demo: the simulator at %s; the journal is %s\nPaste this to come in:\n\n  %s\n\n",
			a.simBase, a.journal.Path(), a.demoLine(port))
	} else {
		people := fmt.Sprintf("%d members", len(a.team.Members))
		if len(a.team.Members) == 1 {
			people = "1 member"
		}
		fmt.Fprintf(stdout, "dbadmin-tui serve: listening on %s for %s of %s; the journal is %s\n",
			ln.Addr(), people, a.team.Path, a.journal.Path())
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	defer signal.Stop(sigs)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		if err != nil {
			fmt.Fprintf(stderr, "dbadmin-tui serve: %v\n", err)
			return 1
		}
		return 0
	case sig := <-sigs:
		a.log.Info("stopping", "signal", sig.String(), "sessions", srv.Sessions())
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err := srv.Shutdown(ctx, "the server is stopping ("+sig.String()+"); your writes are in the journal")
		if cerr := a.journal.Close(); cerr != nil {
			a.log.Error("journal", "err", cerr)
		}
		if err != nil {
			a.log.Error("stopping", "err", err)
			return 1
		}
		a.log.Info("stopped")
		return 0
	}
}

// stateDir is $XDG_STATE_HOME/dbadmin-tui, else ~/.local/state/dbadmin-tui.
func stateDir(getenv func(string) string) string {
	if d := getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "dbadmin-tui")
	}
	return filepath.Join(expandHome("~/.local/state", getenv), "dbadmin-tui")
}

func (a *serveApp) hostKeyPath() string {
	if a.f.hostKey != "" {
		return a.f.hostKey
	}
	name := "ssh_host_ed25519"
	if a.f.demo {
		name = "demo_ssh_host_ed25519"
	}
	return filepath.Join(stateDir(a.getenv), name)
}

// start reads the team file (or makes the demo's), opens the journal and
// starts the simulator for --demo.
func (a *serveApp) start() error {
	jpath := a.f.journalPath
	if jpath == "" {
		p, err := journal.DefaultPath(a.getenv)
		if err != nil {
			return err
		}
		jpath = p
	}
	j, err := journal.Open(jpath)
	if err != nil {
		return err
	}
	a.journal = j
	a.closeAll = append(a.closeAll, func() { _ = j.Close() })
	if a.f.demo {
		sim, err := apisim.New(apisim.Options{Speed: a.f.demoSpeed})
		if err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		base, err := sim.Start(a.f.demoListen)
		if err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		a.sim, a.simBase = sim, base
		a.closeAll = append(a.closeAll, func() { _ = sim.Close() })
		if a.f.team == "" {
			if err := a.demoTeam(); err != nil {
				return err
			}
		}
	}
	path := a.f.team
	if path == "" {
		dir := filepath.Join(expandHome("~/.config", a.getenv), config.AppName)
		if x := a.getenv("XDG_CONFIG_HOME"); x != "" {
			dir = filepath.Join(x, config.AppName)
		}
		path = filepath.Join(dir, "team.toml")
	}
	team, err := serve.LoadTeam(path)
	if err != nil {
		return err
	}
	a.team = team
	// Every profile is resolved now: a wrong one stops the start, not a
	// session.
	for _, p := range team.Profiles() {
		if _, err := a.identity(p); err != nil {
			return fmt.Errorf("team file %s: profile %s: %w", path, p, err)
		}
	}
	return nil
}

// demoTeam writes the demo's key pair and team file: one member, demo,
// whose key is generated on this machine (owner-only), so the printed ssh
// line needs no key of the user's own.
func (a *serveApp) demoTeam() error {
	dir := filepath.Join(stateDir(a.getenv), "demo")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	a.demoKey = filepath.Join(dir, "demo_ed25519")
	kp, err := keygen.New(a.demoKey, keygen.WithKeyType(keygen.Ed25519), keygen.WithWrite())
	if err != nil {
		return fmt.Errorf("demo key: %w", err)
	}
	a.f.team = filepath.Join(dir, "team.toml")
	text := fmt.Sprintf("# The demo team: written by dbadmin-tui serve --demo.\n[[member]]\nname = \"demo\"\nkeys = [%q]\nprofile = \"org-owner\"\n",
		strings.TrimSpace(kp.AuthorizedKey()))
	return serve.WriteTeamFile(a.f.team, text)
}

// writeKnownHosts writes the demo's known_hosts, so the printed line
// checks the host key without asking and without touching ~/.ssh.
func (a *serveApp) writeKnownHosts(port int) error {
	pem, err := serve.HostKey(a.hostKeyPath())
	if err != nil {
		return err
	}
	signer, err := gossh.ParsePrivateKey(pem)
	if err != nil {
		return fmt.Errorf("host key: %w", err)
	}
	pub := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(signer.PublicKey())))
	hp := strconv.Itoa(port)
	a.known = filepath.Join(stateDir(a.getenv), "demo", "known_hosts")
	if err := os.MkdirAll(filepath.Dir(a.known), 0o700); err != nil {
		return err
	}
	text := fmt.Sprintf("[localhost]:%s %s\n[127.0.0.1]:%s %s\n", hp, pub, hp, pub)
	return os.WriteFile(a.known, []byte(text), 0o600)
}

func (a *serveApp) demoLine(port int) string {
	key := a.demoKey
	if key == "" {
		key = "<your key>"
	}
	return fmt.Sprintf("ssh -i %s -o IdentitiesOnly=yes -o UserKnownHostsFile=%s -p %d demo@localhost",
		shellQuote(key), shellQuote(a.known), port)
}

func shellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '+' || r == ':' || r == '@' ||
			(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9'))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// identity is the profile's shared client, made on first use.
func (a *serveApp) identity(profile string) (*identity, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if id, ok := a.ids[profile]; ok {
		return id, nil
	}
	km := a.panes.Keymap()
	opts := ui.Options{Panes: a.panes, Profile: profile}
	var clientOpts apiclient.Options
	var roles []catalog.Assignment
	var keys map[string][]string
	if a.sim != nil {
		if !slices.Contains(demoRoles(), profile) {
			return nil, fmt.Errorf("the demo knows the profiles %s", strings.Join(demoRoles(), ", "))
		}
		opts.Clock, opts.Wall = a.sim.Now, time.Now
		opts.DemoServer = a.simBase
		clientOpts = apiclient.Options{BaseURL: a.simBase, Service: "atlas",
			Auth: apiclient.DigestAuth(profile, profile+"-secret")}
	} else {
		prof, co, err := fromProfile(config.LoadOptions{Profile: profile, ConfigPath: a.f.configPath,
			Env: a.getenv, Panes: a.panes.PollDefaults()}, km, &opts)
		if err != nil {
			return nil, err
		}
		keys, roles, clientOpts = prof.Keys, prof.Roles, co
	}
	clientOpts.AppVersion = version
	clientOpts.WarmLanes = apiclient.DefaultWarmLanes
	client, err := apiclient.New(clientOpts)
	if err != nil {
		return nil, err
	}
	client.ShareReads(apiclient.NewReadShare(a.f.shareWindow))
	if opts.Clock == nil {
		opts.Clock = client.Now
	}
	learning, stop := context.WithTimeout(context.Background(), time.Minute)
	a.closeAll = append(a.closeAll, stop)
	go func() {
		defer stop()
		_ = client.LearnRateLimits(learning, apiclient.RateLimitFilter{})
	}()
	id := &identity{client: client, roles: roles, keys: keys, opts: opts}
	a.ids[profile] = id
	return id, nil
}

// dashboard builds one session's root model: its own gate (read-only for
// a read-only member), its own view of the profile's shared client, and
// the hook that journals its writes and asks before a double
// acknowledgement.
func (a *serveApp) dashboard(s *serve.Session) (tea.Model, []tea.ProgramOption, error) {
	opts, err := a.sessionOptions(s)
	if err != nil {
		return nil, nil, err
	}
	m, err := ui.New(opts)
	if err != nil {
		return nil, nil, err
	}
	// A session draws at the terminal's frame rate, not Bubble Tea's 60.
	popts := []tea.ProgramOption{tea.WithFPS(frameRate)}
	if s.Width > 0 && s.Height > 0 {
		popts = append(popts, tea.WithWindowSize(s.Width, s.Height))
	}
	if a.getenv("NO_COLOR") != "" {
		popts = append(popts, tea.WithColorProfile(colorprofile.ASCII))
	}
	return m, popts, nil
}

// sessionOptions are a session's dashboard options: its own client view
// of the profile's shared client, with its own gate and write hook.
func (a *serveApp) sessionOptions(s *serve.Session) (ui.Options, error) {
	id, err := a.identity(s.Member.Profile)
	if err != nil {
		return ui.Options{}, err
	}
	gate := apiclient.NewGate(id.roles)
	gate.SetClock(id.opts.Clock)
	actor := apiclient.Actor{Name: s.Member.Name, Fingerprint: s.Fingerprint, Profile: s.Member.Profile}
	hook := sessionHook{hub: a.hub, journal: journal.Hook{J: a.journal, OnError: func(err error) {
		a.log.Error("journal", "err", err)
	}}, readOnly: s.Member.ReadOnly}
	opts := id.opts
	// A keymap of its own: the dashboard teaches it its gate.
	opts.Keys = a.panes.Keymap()
	if err := opts.Keys.Apply(id.keys); err != nil {
		return ui.Options{}, err
	}
	opts.Client = id.client.Session(apiclient.SessionOptions{Gate: gate, Actor: actor, Hook: hook})
	if s.Member.ReadOnly {
		opts.ReadOnly, opts.ReadOnlyBy = true, "the team file sets read_only = true for "+s.Member.Name
	}
	opts.Presence = presence{hub: a.hub, name: s.Member.Name, session: s.ID}
	opts.JournalPath = a.journal.Path()
	// Saved files (an access-log export) land on the server, in a
	// directory of the member's own, never the server's working directory.
	opts.ExportDir = filepath.Join(stateDir(a.getenv), "exports", fileName(s.Member.Name))
	// "updated Ns ago" moves in 10 s steps: an idle session then costs a
	// few hundred bytes a minute on the wire instead of a redraw a second.
	opts.ClockEvery = 10 * time.Second
	return opts, nil
}

// sessionHook is a session's write hook: a read-only member's write is
// refused here, in the client the session calls, whatever the screen
// shows; then the hub (double acknowledgements) and the journal.
type sessionHook struct {
	hub      *serve.Hub
	journal  journal.Hook
	readOnly bool
}

func (h sessionHook) Before(a apiclient.Actor, op catalog.Op, params map[string]string, body any) error {
	if h.readOnly {
		return fmt.Errorf("%s is read-only on this server (team file)", a.Name)
	}
	return h.hub.Before(a, op, params, body)
}

func (h sessionHook) After(e apiclient.WriteEvent) {
	h.journal.After(e) // first: the journal holds it before anyone is told
	h.hub.After(e)
}

// presence is what a session's header shows of the others.
type presence struct {
	hub     *serve.Hub
	name    string
	session int
}

func (p presence) Others() []string { return p.hub.Others(p.name) }

func (p presence) Acting(groupID, alertID string) string {
	return p.hub.Acting(p.name, groupID, alertID)
}

func (p presence) AckedBy(groupID, alertID string) string { return p.hub.AckedBy(groupID, alertID) }

func (p presence) Doing(what string, alerts []views.AlertRef) {
	refs := make([]serve.AlertRef, len(alerts))
	for i, a := range alerts {
		refs[i] = serve.AlertRef{GroupID: a.GroupID, AlertID: a.AlertID}
	}
	p.hub.Mark(p.session, p.name, what, refs)
}

// fileName is name with every character but letters, digits, '.', '-' and
// '_' replaced by '_' (and no leading dot).
func fileName(name string) string {
	b := []rune(name)
	for i, r := range b {
		if !(r == '.' || r == '-' || r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')) {
			b[i] = '_'
		}
	}
	if len(b) > 0 && b[0] == '.' {
		b[0] = '_'
	}
	return string(b)
}
