package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/apisim"
	"github.com/dbadmin-tui/dbadmin-tui/ui"
	"github.com/dbadmin-tui/dbadmin-tui/views"
)

type catalogAssignment = catalog.Assignment

// flags are the command line of the dashboard itself.
type flags struct {
	profile, configPath, baseURL, service string
	project, cluster                      string
	pane                                  views.ID
	readOnly                              bool
	theme                                 string
	demo                                  bool
	demoRole                              string
	demoSpeed                             float64
	demoListen                            string
	demoOrgs, demoProjects                int
	demoAuthBursts                        int
	demoLatency                           time.Duration
	version                               bool
	allowHTTP                             bool
}

// parseFlags parses and validates; any problem is one line for the user.
func parseFlags(args []string) (flags, error) {
	var f flags
	var pane string
	fs := flag.NewFlagSet("dbadmin-tui", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.profile, "profile", "", "")
	fs.StringVar(&f.configPath, "config", "", "")
	fs.StringVar(&f.baseURL, "base-url", "", "")
	fs.StringVar(&f.service, "service", "", "")
	fs.StringVar(&f.project, "project", "", "")
	fs.StringVar(&f.cluster, "cluster", "", "")
	fs.StringVar(&pane, "pane", "", "")
	fs.BoolVar(&f.readOnly, "read-only", false, "")
	fs.StringVar(&f.theme, "theme", "", "")
	fs.BoolVar(&f.demo, "demo", false, "")
	fs.StringVar(&f.demoRole, "demo-role", "org-owner", "")
	fs.Float64Var(&f.demoSpeed, "demo-speed", 10, "")
	fs.IntVar(&f.demoOrgs, "demo-orgs", 0, "")
	fs.IntVar(&f.demoProjects, "demo-projects", 0, "")
	fs.DurationVar(&f.demoLatency, "demo-latency", 0, "")
	fs.IntVar(&f.demoAuthBursts, "demo-auth-bursts", 0, "")
	fs.StringVar(&f.demoListen, "demo-listen", defaultDemoListen, "")
	fs.BoolVar(&f.version, "version", false, "")
	fs.BoolVar(&f.allowHTTP, "allow-http", false, "")
	if err := parseArgs(fs, args); err != nil {
		return f, err
	}
	if pane != "" {
		id, err := paneFlag(ui.Panes(), pane)
		if err != nil {
			return f, err
		}
		f.pane = id
	}
	switch strings.ToLower(f.theme) {
	case "", "auto", "dark", "light", "mono":
		f.theme = strings.ToLower(f.theme)
	default:
		return f, fmt.Errorf("--theme %q: want dark, light or mono", f.theme)
	}
	if f.demoSpeed <= 0 {
		return f, fmt.Errorf("--demo-speed must be positive, got %v", f.demoSpeed)
	}
	if f.demoOrgs < 0 || f.demoOrgs > 1000 || f.demoProjects < 0 || (f.demoProjects > 0 && f.demoProjects < 3) || f.demoProjects > 10000 {
		return f, fmt.Errorf("--demo-orgs must be 1..1000 and --demo-projects 3..10000")
	}
	if f.demoLatency < 0 {
		return f, fmt.Errorf("--demo-latency must not be negative")
	}
	if f.demoAuthBursts != 0 && (f.demoAuthBursts < 2 || f.demoAuthBursts > 10000) {
		return f, fmt.Errorf("--demo-auth-bursts must be 2..10000 failed logins a minute (0: off)")
	}
	roles := demoRoles()
	if !slices.Contains(roles, f.demoRole) {
		return f, fmt.Errorf("--demo-role %q: want one of %s", f.demoRole, strings.Join(roles, ", "))
	}
	if f.demo && (f.baseURL != "" || f.profile != "" || f.configPath != "") {
		return f, fmt.Errorf("--demo runs its own server: drop --base-url, --profile and --config")
	}
	listenSet := false
	fs.Visit(func(fl *flag.Flag) { listenSet = listenSet || fl.Name == "demo-listen" })
	if listenSet && !f.demo {
		return f, fmt.Errorf("--demo-listen is the demo server's address: add --demo")
	}
	if err := checkDemoListen(f.demoListen); err != nil {
		return f, err
	}
	return f, nil
}

// defaultDemoListen lets the system pick a free loopback port.
const defaultDemoListen = "127.0.0.1:0"

// checkDemoListen accepts only loopback HOST:PORT: the demo server answers
// the built-in keys, whose secrets are public, so it must not be reachable
// from other machines (the simulator refuses it too; saying so here keeps
// it to one line before anything starts).
func checkDemoListen(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if _, perr := strconv.ParseUint(port, 10, 16); err != nil || perr != nil {
		return fmt.Errorf("--demo-listen %q: want HOST:PORT on loopback, e.g. 127.0.0.1:8484", addr)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("--demo-listen %s: not a loopback address; the demo keys are public, so the demo server listens on loopback only (127.0.0.1, ::1, localhost)", addr)
	}
	return nil
}

func demoRoles() []string {
	var out []string
	for _, id := range apisim.DemoIdentities() {
		if id.Kind == apisim.KindAPIKey {
			out = append(out, id.PublicKey)
		}
	}
	return out
}

// parseArgs parses args into fs's flags: flag.ErrHelp as it is, a bad
// flag as the first line of its error, and no argument beyond the flags.
func parseArgs(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return fmt.Errorf("%s", firstLine(err.Error()))
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// paneFlag reads --pane: a registered pane's name, alias or number.
func paneFlag(panes views.Registry, s string) (views.ID, error) {
	id, ok := panes.ByName(s)
	if !ok {
		return "", fmt.Errorf("--pane %q: want %s, or 1-%d", s, strings.Join(panes.Commands(), ", "), len(panes))
	}
	return id, nil
}

func usage() string {
	return `Usage: dbadmin-tui [flags]
       dbadmin-tui check [flags]   verify a profile without the UI
       dbadmin-tui serve [flags]   serve the dashboard to a team over SSH (serve --help)
       dbadmin-tui journal [--since 8h]  print the handoff: the writes made since

Connection:
  --profile NAME      profile to use (else $MONGODB_ATLAS_PROFILE, else the only/default one)
  --config PATH       our config file (default $XDG_CONFIG_HOME/dbadmin-tui/config.toml)
  --base-url URL      service address, overriding the profile
  --service SEGMENT   API path segment: /api/SEGMENT/v2 (default atlas)
  --allow-http        accept a plain http:// base URL off loopback (credentials
                      then cross the network unencrypted)
  --demo              run against a built-in simulator with demo data
  --demo-role NAME    demo identity: ` + strings.Join(demoRoles(), ", ") + ` (default org-owner)
  --demo-speed N      demo clock speed-up (default 10)
  --demo-orgs N       organizations in the demo world (default 2)
  --demo-projects N   projects in the demo world (default 12; 200 for a scale test)
  --demo-latency D    added latency per demo API call, e.g. 20ms
  --demo-auth-bursts N  Triage lists bursts of N+ failed logins a minute from one
                      address (the profile's triage_auth_bursts; default off)
  --demo-listen ADDR  demo server address, loopback only (default 127.0.0.1:0, a free
                      port; ? shows it while running)

Start-up:
  --project ID|NAME   project to open (else the remembered one, else the first)
  --cluster NAME      narrow to one cluster
  --pane NAME         ` + strings.Join(ui.Panes().Commands(), ", ") + ` (or its number)
  --read-only         refuse every change (also :ro in the app)
  --theme NAME        dark, light or mono (NO_COLOR forces mono)
  --version           print the version

Keys: 1-` + strconv.Itoa(min(9, len(ui.Panes()))) + `/tab switch panes, : palette, / filter, ? help, @ context, r refresh,
p pause, y copy, q quit.
`
}
