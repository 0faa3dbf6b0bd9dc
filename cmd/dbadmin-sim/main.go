// Command dbadmin-sim serves a local Administration API: the demo world of
// apisim over HTTP, with digest and OAuth authentication, role checks,
// versioning, faults and optional persistence.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apisim"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config is what the flags say.
type config struct {
	addr, service, state, keys string
	seed                       int64
	speed                      float64
	latency                    time.Duration
	faultRate, malformedRate   float64
	rateLimit                  int
	digestSHA256               bool
	rateLimits                 map[string]apisim.RateLimit
	stateMaxMB                 int
	orgs, projects             int
}

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	var c config
	var rate string
	fs := flag.NewFlagSet("dbadmin-sim", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8484", "listen address (host:port; port 0 picks a free one)")
	fs.StringVar(&c.service, "service", "atlas", "service path segment: /api/{service}/v2")
	fs.Int64Var(&c.seed, "seed", 1, "world seed")
	fs.Float64Var(&c.speed, "speed", 1, "clock speed factor, e.g. 10 for a demo")
	fs.DurationVar(&c.latency, "latency", 0, "added latency per API call, e.g. 200ms")
	fs.Float64Var(&c.faultRate, "fault-rate", 0, "share of API calls answered 500/503 (0..1)")
	fs.Float64Var(&c.malformedRate, "malformed-rate", 0, "share of successful bodies truncated (0..1)")
	fs.StringVar(&rate, "rate-limit", "", "token buckets: N/min sets every endpoint set to N a minute per scope; SET=N/min,... sets one (default: sets like the service's, listed at GET /api/atlas/v2/rateLimits)")
	fs.StringVar(&c.state, "state", "", "state file: loaded at start, saved on change and at exit")
	fs.BoolVar(&c.digestSHA256, "digest-sha256", false, "challenge with digest SHA-256 instead of the service's MD5")
	fs.IntVar(&c.stateMaxMB, "state-max-mb", apisim.DefaultStateMaxBytes>>20, "refuse a --state file larger than this many MiB")
	fs.IntVar(&c.orgs, "orgs", apisim.DefaultOrgs, "organizations in the seeded world")
	fs.IntVar(&c.projects, "projects", apisim.DefaultProjects, "projects in the seeded world (at least 3)")
	fs.StringVar(&c.keys, "keys", "", "JSON file of identities (required for a non-loopback --addr)")
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stderr, "Usage: dbadmin-sim [flags]\n\nA local Administration API server with a seeded demo world.\n\nFlags:")
			fs.SetOutput(stderr)
			fs.PrintDefaults()
			fmt.Fprintln(stderr, "\nDemo keys (HTTP Digest): org-owner/org-owner-secret, and ROLE/ROLE-secret for\nproject-owner, read-only, backup-manager, monitoring-admin, data-access-admin;\nservice account demo-sa/demo-sa-secret; payments-oncall holds roles on one project in three.")
		}
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if rate != "" {
		n, sets, err := apisim.ParseRateLimits(rate)
		if err != nil {
			return nil, err
		}
		c.rateLimit, c.rateLimits = n, sets
	}
	switch {
	case c.speed <= 0:
		return nil, fmt.Errorf("--speed must be positive")
	case c.latency < 0:
		return nil, fmt.Errorf("--latency must not be negative")
	case c.faultRate < 0 || c.faultRate > 1:
		return nil, fmt.Errorf("--fault-rate must be between 0 and 1")
	case c.malformedRate < 0 || c.malformedRate > 1:
		return nil, fmt.Errorf("--malformed-rate must be between 0 and 1")
	case c.orgs < 1 || c.orgs > 1000:
		return nil, fmt.Errorf("--orgs must be between 1 and 1000")
	case c.projects < 3 || c.projects > 10000:
		return nil, fmt.Errorf("--projects must be between 3 and 10000")
	case c.stateMaxMB < 1:
		return nil, fmt.Errorf("--state-max-mb must be at least 1")
	case c.service == "" || strings.ContainsAny(c.service, "/{} "):
		return nil, fmt.Errorf("--service must be a single path segment")
	}
	return &c, nil
}

func run(args []string, stdout, stderr io.Writer) int {
	c, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0 // asked for help: the usage is the answer
		}
		fmt.Fprintln(stderr, "dbadmin-sim:", err)
		return 2
	}
	opts := apisim.Options{Service: c.service, Seed: c.seed, Speed: c.speed, Latency: c.latency, FaultRate: c.faultRate,
		MalformedRate: c.malformedRate, RateLimitPerMin: c.rateLimit, RateLimits: c.rateLimits, StateFile: c.state,
		StateMaxBytes: int64(c.stateMaxMB) << 20, DigestSHA256: c.digestSHA256, Orgs: c.orgs, Projects: c.projects}
	if c.keys != "" {
		ids, err := apisim.LoadIdentities(c.keys)
		if err != nil {
			fmt.Fprintln(stderr, "dbadmin-sim:", err)
			return 2
		}
		opts.Identities = ids
	}
	srv, err := apisim.New(opts)
	if err != nil {
		fmt.Fprintln(stderr, "dbadmin-sim:", err)
		return 1
	}
	base, err := srv.Start(c.addr)
	if err != nil {
		fmt.Fprintln(stderr, "dbadmin-sim:", err)
		return 1
	}
	if srv.UsesBuiltinIdentities() {
		fmt.Fprintln(stderr, "demo identities (public key / private key, roles):")
		for _, id := range apisim.DemoIdentities() {
			var roles []string
			seen := map[string]bool{}
			for _, a := range id.Roles {
				if !seen[string(a.RoleName)] {
					seen[string(a.RoleName)] = true
					roles = append(roles, string(a.RoleName))
				}
			}
			fmt.Fprintf(stderr, "  %-18s %-25s %-15s %s\n", id.PublicKey, id.PrivateKey, id.Kind, strings.Join(roles, ", "))
		}
		w := srv.World()
		fmt.Fprintf(stderr, "org %s; projects:", w.OrgID)
		for _, name := range []string{"payments", "analytics", "staging"} {
			fmt.Fprintf(stderr, " %s=%s", name, w.Projects[name])
		}
		fmt.Fprintln(stderr)
	}
	fmt.Fprintf(stdout, "dbadmin-sim listening on %s\n", base)

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	<-sig
	signal.Stop(sig)
	if err := srv.Close(); err != nil {
		fmt.Fprintln(stderr, "dbadmin-sim:", err)
		return 1
	}
	return 0
}
