package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/config"
	"github.com/dbadmin-tui/dbadmin-tui/ui"
)

// paneAction is one action a pane offers, with the operation it calls: what
// `check` evaluates against the caller's roles.
type paneAction struct {
	pane, action, opID string
}

// paneActions lists the dashboard's actions pane by pane, from the
// registered panes: what each reads on its own, then every action that
// calls an operation, named as help names it.
func paneActions() []paneAction {
	var out []paneAction
	for _, r := range ui.Panes() {
		pane := strings.ToLower(r.Title)
		for _, rd := range r.Reads {
			out = append(out, paneAction{pane, rd.Desc, rd.Op})
		}
		for _, a := range r.Actions {
			if a.Op != "" {
				out = append(out, paneAction{pane, a.Help().Desc, a.Op})
			}
		}
	}
	return out
}

// Limits that keep `check` quick on large accounts.
const (
	checkDialTimeout     = 5 * time.Second
	checkWhoAmITimeout   = 20 * time.Second
	checkTotalTimeout    = 90 * time.Second
	checkClusterProjects = 50 // projects whose clusters are listed
	checkConcurrency     = 4
	// A read answered 429 or 5xx is retried, honouring Retry-After, for at
	// most this long in all; then the first definitive failure is reported.
	checkRetryBudget = 60 * time.Second
	checkMaxRetries  = 10
)

// checkCommand holds what `check` takes from its surroundings, so tests can
// supply the environment and the HTTP transport.
type checkCommand struct {
	env       func(string) string
	transport http.RoundTripper // nil: a transport with the timeouts above
}

// runCheck is `dbadmin-tui check`: it resolves the profile, authenticates,
// and reports what the caller can see and do. It returns the exit code.
func runCheck(args []string, stdout, stderr io.Writer) int {
	return checkCommand{env: os.Getenv}.run(context.Background(), args, stdout, stderr)
}

func (cc checkCommand) run(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	// A bug here must still end in one line, not a stack dump on the
	// terminal of someone diagnosing their setup.
	var secrets []config.Secret
	defer func() {
		if p := recover(); p != nil {
			code = fail(stderr, secrets, "internal error: %v (please report it)", p)
		}
	}()
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var opts config.LoadOptions
	fs.StringVar(&opts.Profile, "profile", "", "profile to use (default: $MONGODB_ATLAS_PROFILE, the only profile, or default)")
	fs.StringVar(&opts.Profile, "P", "", "shorthand for --profile")
	fs.StringVar(&opts.BaseURL, "base-url", "", "service address (default: the profile's, $MONGODB_ATLAS_OPS_MANAGER_URL, or the cloud)")
	fs.StringVar(&opts.ServiceSegment, "service", "", "API path segment: /api/{service}/v2 (default atlas)")
	fs.StringVar(&opts.ConfigPath, "config", "", "our config file (default: $XDG_CONFIG_HOME/dbadmin-tui/config.toml)")
	allowHTTP := fs.Bool("allow-http", false, "accept a plain http:// base URL off loopback (credentials cross the network unencrypted)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "usage: dbadmin-tui check [--profile P] [--base-url URL] [--service S] [--config FILE]")
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return 0
		}
		return fail(stderr, nil, "%s (see dbadmin-tui check -h)", err)
	}
	if fs.NArg() > 0 {
		return fail(stderr, nil, "unexpected argument %q (see dbadmin-tui check -h)", fs.Arg(0))
	}
	opts.Env = cc.env

	opts.Panes = ui.Panes().PollDefaults()
	prof, err := config.Load(opts)
	if err != nil {
		return fail(stderr, nil, "%s", err)
	}
	secrets = []config.Secret{prof.PrivateKey, prof.ClientSecret, prof.AccessToken}
	auth, err := prof.Auth()
	if err != nil {
		return fail(stderr, secrets, "%s", err)
	}

	transport := cc.transport
	if transport == nil {
		transport = newCheckTransport()
	}
	client, err := apiclient.New(apiclient.Options{
		BaseURL:    prof.BaseURL,
		Service:    prof.Service,
		Auth:       auth,
		HTTPClient: &http.Client{Transport: transport},
		// A diagnosis retries only what is transient (rate limits, 5xx,
		// cut-off bodies), each wait on one line, and reports the rest as it is.
		MaxRetries:  checkMaxRetries,
		RetryBudget: checkRetryBudget,
		RetryIf:     transientForCheck,
		OnRetry: func(op string, attempt int, wait time.Duration, err error) {
			fmt.Fprintln(stderr, scrub("dbadmin-tui check: "+oneLine(retryReason(err))+"; retrying "+op+" in "+wait.Round(100*time.Millisecond).String(), secrets))
		},
		AllowHTTP: *allowHTTP,
	})
	if err != nil {
		return fail(stderr, secrets, "%s", err)
	}

	ctx, cancel := context.WithTimeout(ctx, checkTotalTimeout+checkRetryBudget)
	defer cancel()
	whoCtx, whoCancel := context.WithTimeout(ctx, checkWhoAmITimeout+checkRetryBudget)
	status, err := client.WhoAmI(whoCtx)
	whoCancel()
	if err != nil {
		return fail(stderr, secrets, "%s", describeFailure(err, prof, client.BaseURL()))
	}

	out := &scrubWriter{w: stdout, secrets: secrets}
	report := gatherReport(ctx, client, prof, status)
	report.print(out)
	return 0
}

// transientForCheck is what `check` retries: a rate limit, a server error or
// a body cut off; not a refused connection or a 4xx, which retrying cannot fix.
func transientForCheck(err error) bool {
	var de *apiclient.DecodeError
	if errors.As(err, &de) {
		return true
	}
	e, ok := apiclient.AsError(err)
	return ok && (e.Status == http.StatusTooManyRequests || e.Status >= 500)
}

// retryReason names a retried failure in a few words.
func retryReason(err error) string {
	if e, ok := apiclient.AsError(err); ok {
		what := fmt.Sprintf("%d %s", e.Status, e.ErrorCode)
		if e.RetryAfter > 0 {
			what += fmt.Sprintf(" (Retry-After %s)", e.RetryAfter)
		}
		return what
	}
	return "unreadable answer"
}

// newCheckTransport dials and handshakes with short timeouts, so an
// unreachable host fails in seconds rather than minutes.
func newCheckTransport() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: checkDialTimeout, KeepAlive: 30 * time.Second}).DialContext
	t.TLSHandshakeTimeout = checkDialTimeout
	t.ResponseHeaderTimeout = checkWhoAmITimeout
	return t
}

// fail prints one line on stderr and returns the exit code for failure.
func fail(stderr io.Writer, secrets []config.Secret, format string, args ...any) int {
	line := oneLine(fmt.Sprintf(format, args...))
	line = scrub(line, secrets)
	fmt.Fprintln(stderr, "dbadmin-tui check: "+line)
	return 1
}
