// Command dbadmin-tui is the terminal dashboard for the database cloud's
// Administration API. `dbadmin-tui --demo` runs it against an in-process
// simulator; `dbadmin-tui check` verifies a profile without the UI.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/config"
	"github.com/dbadmin-tui/dbadmin-tui/journal"
	"github.com/dbadmin-tui/dbadmin-tui/keymap"
	"github.com/dbadmin-tui/dbadmin-tui/ui"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}

// run is main without the process: it returns the exit code (2 for bad
// usage, 1 for a failure to start).
func run(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) > 0 && args[0] == "check" {
		return runCheck(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "serve" {
		return runServe(args[1:], stdout, stderr, getenv)
	}
	if len(args) > 0 && args[0] == "journal" {
		return runJournal(args[1:], stdout, stderr, getenv)
	}
	f, err := parseFlags(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, usage())
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "dbadmin-tui: %v (see dbadmin-tui --help)\n", err)
		return 2
	}
	if f.version {
		fmt.Fprintln(stdout, "dbadmin-tui", version)
		return 0
	}
	app, err := setup(f, getenv, ui.Panes())
	if err != nil {
		fmt.Fprintf(stderr, "dbadmin-tui: %v\n", err)
		var usageErr *usageError
		if errors.As(err, &usageErr) {
			return 2
		}
		return 1
	}
	if err := openLocalJournal(app, getenv, stderr); err != nil {
		app.close()
		fmt.Fprintf(stderr, "dbadmin-tui: %v\n", err)
		return 1
	}
	defer app.close()
	limitMemory(getenv)
	stopProfile := startProfile(getenv, stderr)
	defer stopProfile()
	app.model.Prestart() // the first reads leave while the terminal is set up
	p := tea.NewProgram(app.model, app.programOptions...)
	if _, err := p.Run(); err != nil {
		fmt.Fprintf(stderr, "dbadmin-tui: %v\n", err)
		return 1
	}
	return 0
}

// fromProfile loads the profile lo names, applies its key overrides to km
// and sets in opts what the profile says and the command line did not (the
// project, read-only, the theme); co reaches the profile's service.
func fromProfile(lo config.LoadOptions, km *keymap.KeyMap, opts *ui.Options) (prof *config.Resolved, co apiclient.Options, err error) {
	if prof, err = config.Load(lo); err != nil {
		return nil, co, err
	}
	auth, err := prof.Auth()
	if err != nil {
		return nil, co, err
	}
	if err := km.Apply(prof.Keys); err != nil {
		return nil, co, fmt.Errorf("config %s: %w", prof.ConfigPath, err)
	}
	opts.Profile = prof.Name
	opts.OrgID = prof.OrgID
	if opts.Project == "" {
		opts.Project = prof.ProjectID
	}
	if !opts.ReadOnly && prof.ReadOnly {
		opts.ReadOnly, opts.ReadOnlyBy = true, "profile "+prof.Name+" sets read_only = true"
	}
	if opts.Theme == "" {
		opts.Theme = prof.Theme
	}
	opts.Poll = pollFrom(prof.Poll)
	opts.LogBuffer = prof.LogBuffer
	opts.TriageOrgs, opts.TriageProjects = prof.TriageOrgs, prof.TriageProjects
	opts.TriageAuthBursts = prof.TriageAuthBursts
	return prof, apiclient.Options{BaseURL: prof.BaseURL, Service: prof.Service, Auth: auth}, nil
}

// frameRate is the most frames a second the dashboard draws.
const frameRate = 30

// usageError is a bad flag value found after parsing (exit code 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

type app struct {
	model          *ui.Model
	client         *apiclient.Client
	profile        string
	programOptions []tea.ProgramOption
	close          func()
}

// setup resolves the profile (or starts the simulator for --demo), builds
// the client with its gate and the root model with panes (ui.Panes()).
func setup(f flags, getenv func(string) string, panes views.Registry) (*app, error) {
	a := &app{close: func() {}}
	noColor := getenv("NO_COLOR") != ""
	km := panes.Keymap()
	opts := ui.Options{Panes: panes,
		Project: f.project, Cluster: f.cluster, Pane: f.pane, ReadOnly: f.readOnly,
		ReadOnlyBy: readOnlyBy(f.readOnly),
		Theme:      f.theme, NoColor: noColor, Keys: km, Tmux: getenv("TMUX") != "",
	}
	var clientOpts apiclient.Options
	var roles []catalogAssignment
	if f.demo {
		sim, err := apisim.New(apisim.Options{Speed: f.demoSpeed, Orgs: f.demoOrgs, Projects: f.demoProjects, Latency: f.demoLatency})
		if err != nil {
			return nil, fmt.Errorf("demo: %w", err)
		}
		base, err := sim.Start(f.demoListen)
		if err != nil {
			return nil, fmt.Errorf("demo: %w", err)
		}
		a.close = func() { _ = sim.Close() }
		opts.Profile = "demo"
		// The TUI owns the terminal, so the address is not printed: the
		// help overlay shows it, for curl or the simulator's control API.
		opts.DemoServer = base
		opts.TriageAuthBursts = f.demoAuthBursts
		// The demo's world runs --demo-speed times faster than the wall
		// clock: the dashboard reads the simulator's time, so "acknowledge
		// for 1h", ages and sunset dates mean the same on both sides.
		opts.Clock = sim.Now
		opts.Wall = time.Now // "updated Ns ago" counts the user's seconds
		clientOpts = apiclient.Options{BaseURL: base, Service: "atlas",
			Auth: apiclient.DigestAuth(f.demoRole, f.demoRole+"-secret")}
	} else {
		prof, co, err := fromProfile(config.LoadOptions{Profile: f.profile, ConfigPath: f.configPath,
			BaseURL: f.baseURL, ServiceSegment: f.service, Env: getenv, Panes: panes.PollDefaults()}, km, &opts)
		if err != nil {
			return nil, err
		}
		opts.ExportDir = expandHome(prof.ExportDir, getenv)
		roles = prof.Roles
		clientOpts = co
		clientOpts.AllowHTTP = f.allowHTTP
	}
	// The gate sits in the client too: even a request sent outside the
	// action path is refused before it leaves in read-only mode or without
	// the role.
	clientOpts.AppVersion = version
	clientOpts.WarmLanes = apiclient.DefaultWarmLanes // a start's first pages signed at once
	clientOpts.Gate = apiclient.NewGate(roles)
	if opts.Clock != nil {
		clientOpts.Gate.SetClock(opts.Clock)
	}
	client, err := apiclient.New(clientOpts)
	if err != nil {
		a.close()
		return nil, err
	}
	opts.Client = client
	if !f.demo {
		a.close = withStartCache(&opts, client, getenv, a.close)
	}
	a.client, a.profile = client, opts.Profile
	if path, err := journal.DefaultPath(getenv); err == nil {
		opts.JournalPath = path // written by run (openLocalJournal)
	}
	// The service publishes its buckets: learned while the first screen
	// loads, every request is paced by the real refill (the headers give
	// only the capacity). A caller that may not read them learns from the
	// headers and 429s instead.
	// Closing the app stops it.
	learning, stopLearning := context.WithTimeout(context.Background(), time.Minute)
	closeRest := a.close
	a.close = func() { stopLearning(); closeRest() }
	go func() {
		defer stopLearning()
		_ = client.LearnRateLimits(learning, apiclient.RateLimitFilter{})
	}()
	if opts.Clock == nil {
		// Relative times the server judges (ack for 1h, countdowns) use
		// its clock, tracked from each answer's Date header.
		opts.Clock = client.Now
		clientOpts.Gate.SetClock(client.Now)
	}
	if opts.Wall == nil {
		// "updated Ns ago" and "stale since 22:14:03" are the user's
		// seconds and the user's clock, whatever the server's says.
		opts.Wall = time.Now
	}
	if path, err := ui.DefaultContextPath(getenv); err == nil {
		opts.State = &ui.ContextStore{Path: path}
	}
	if opts.ExportDir == "" {
		if dir, err := ui.DefaultExportDir(getenv); err == nil {
			opts.ExportDir = dir
		}
	}
	if a.model, err = ui.New(opts); err != nil {
		a.close()
		return nil, err
	}
	// Bubble Tea draws on a ticker at its frame rate, whether or not the
	// view changed (an unchanged one is compared and skipped): 60 wake-ups
	// a second cost an idle dashboard 0.68 CPU-s a minute, 30 cost 0.41.
	// A key's echo waits for the next tick: 17 ms at most instead of 8,
	// below what tmux measures (a median of 46-63 ms at either rate).
	// Bubble Tea has no rate for a screen that does not change, and its
	// ticker is the only thing that writes a frame: the idle wake-ups stay
	// (about 0.3 CPU-s a minute; see ARCHITECTURE, "Drawing a frame").
	a.programOptions = append(a.programOptions, tea.WithFPS(frameRate))
	if noColor {
		a.programOptions = append(a.programOptions, tea.WithColorProfile(colorprofile.ASCII))
	}
	return a, nil
}

// readOnlyBy says why read-only mode holds when the flag set it.
func readOnlyBy(flag bool) string {
	if flag {
		return "started with --read-only"
	}
	return ""
}

// expandHome turns a leading ~/ into the home directory.
func expandHome(p string, getenv func(string) string) string {
	rest, ok := strings.CutPrefix(p, "~/")
	if !ok {
		return p
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, rest)
}

func pollFrom(iv config.Intervals) views.Poll {
	p := views.DefaultPoll
	p.Pane = map[views.ID]time.Duration{}
	for id, d := range iv {
		p.Pane[views.ID(id)] = d
	}
	return p
}

// withStartCache opens the start cache of this caller (not for a bearer
// token, which names nobody), gives the scheduler what the last start
// heard of the rate limits, and returns done extended to save them. A
// cache that cannot be used is said on screen and the start asks the
// service for everything.
func withStartCache(opts *ui.Options, client *apiclient.Client, getenv func(string) string, done func()) func() {
	if mode := client.AuthMode(); mode != "digest" && mode != "oauth" {
		return done
	}
	dir, err := config.CacheDir(getenv)
	if err == nil {
		opts.Cache, err = apiclient.OpenStartCache(dir, client.BaseURL(), client.Service(), client.Principal())
	}
	if err != nil {
		opts.CacheWarning = err.Error()
		return done
	}
	cache := opts.Cache
	var st apiclient.SchedulerState
	if _, ok := cache.Get(cacheRateLimits, &st); ok {
		client.Scheduler().Restore(st)
	}
	return func() {
		cache.Put(cacheRateLimits, client.Scheduler().State(), time.Now())
		ui.SaveScreen(cache, client)
		_ = cache.Save()
		done()
	}
}

// cacheRateLimits is the start cache's entry for the scheduler's state.
const cacheRateLimits = "rateLimits"
