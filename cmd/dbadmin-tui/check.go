package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"
	"unicode"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/config"
	"github.com/dbadmin-tui/dbadmin-tui/ui"
	"golang.org/x/oauth2"
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

// describeFailure turns the who-am-I failure into one sentence that says what
// went wrong and what to do, instead of the chain of wrapped errors.
func describeFailure(err error, prof *config.Resolved, baseURL string) string {
	profile := prof.Name
	var (
		apiErr     *apiclient.Error
		retrieve   *oauth2.RetrieveError
		unknownCA  x509.UnknownAuthorityError
		badHost    x509.HostnameError
		badCert    x509.CertificateInvalidError
		verifyErr  *tls.CertificateVerificationError
		recordErr  tls.RecordHeaderError
		alertErr   tls.AlertError
		dnsErr     *net.DNSError
		decodeErr  *apiclient.DecodeError
		opErr      *net.OpError
		timeoutErr interface{ Timeout() bool }
	)
	switch {
	case errors.As(err, &retrieve):
		status := 0
		if retrieve.Response != nil {
			status = retrieve.Response.StatusCode
		}
		if status == http.StatusUnauthorized || status == http.StatusBadRequest || status == http.StatusForbidden {
			return fmt.Sprintf("authentication failed (%d from the token endpoint %s/api/oauth/token): check the client id/secret for profile %s", status, baseURL, profile)
		}
		return fmt.Sprintf("could not get a service-account token from %s/api/oauth/token (HTTP %d)", baseURL, status)
	case errors.As(err, &apiErr):
		return describeAPIError(apiErr, prof, baseURL)
	case errors.As(err, &unknownCA):
		return fmt.Sprintf("TLS handshake with %s failed: certificate signed by an unknown authority", baseURL)
	case errors.As(err, &badHost):
		return fmt.Sprintf("TLS handshake with %s failed: the certificate is not valid for %s", baseURL, badHost.Host)
	case errors.As(err, &badCert):
		return fmt.Sprintf("TLS handshake with %s failed: %s", baseURL, strings.TrimPrefix(badCert.Error(), "x509: "))
	case errors.As(err, &verifyErr):
		return fmt.Sprintf("TLS handshake with %s failed: the certificate could not be verified", baseURL)
	case errors.As(err, &recordErr):
		return fmt.Sprintf("TLS handshake with %s failed: the server did not answer in TLS (is it http:// rather than https://?)", baseURL)
	case errors.As(err, &alertErr):
		return fmt.Sprintf("TLS handshake with %s failed: the server sent alert %q", baseURL, alertErr.Error())
	case strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		return fmt.Sprintf("TLS handshake with %s failed: the server answered plain HTTP (use http:// if that is intended)", baseURL)
	case errors.As(err, &dnsErr):
		return fmt.Sprintf("cannot reach %s: unknown host %s", baseURL, dnsErr.Name)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("cannot reach %s: connection refused", baseURL)
	case errors.Is(err, syscall.ECONNRESET):
		return fmt.Sprintf("cannot reach %s: connection reset by the server", baseURL)
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &timeoutErr) && timeoutErr.Timeout():
		return fmt.Sprintf("cannot reach %s: no answer within %s", baseURL, checkWhoAmITimeout)
	case errors.As(err, &decodeErr):
		return fmt.Sprintf("%s answered who-am-I with a body that is not the Administration API's (check --base-url and --service)", baseURL)
	case errors.As(err, &opErr):
		return fmt.Sprintf("cannot reach %s: %s", baseURL, innermost(err))
	}
	return fmt.Sprintf("check against %s failed: %s", baseURL, innermost(err))
}

func describeAPIError(e *apiclient.Error, prof *config.Resolved, baseURL string) string {
	code := e.ErrorCode
	if code == "" {
		code = e.Reason
	}
	what := fmt.Sprintf("%d %s", e.Status, code)
	switch e.Status {
	case http.StatusUnauthorized:
		noun, hint := credentialNoun(prof.AuthType)
		return fmt.Sprintf("authentication failed (%s): check the %s for profile %s%s", what, noun, prof.Name, hint)
	case http.StatusForbidden:
		detail := ""
		if e.Detail != "" {
			detail = ": " + strings.TrimRight(clean(e.Detail), ". ")
		}
		return fmt.Sprintf("access denied (%s)%s; the credentials of profile %s were recognised but may not call the API (check the key's IP access list and roles)", what, detail, prof.Name)
	case http.StatusNotFound:
		return fmt.Sprintf("%s has no Administration API at /api/%s/v2 (%s): check --base-url and --service", baseURL, prof.Service, what)
	case http.StatusTooManyRequests:
		return fmt.Sprintf("rate limited by %s (%s): try again later", baseURL, what)
	}
	if e.NotAPIShape {
		return fmt.Sprintf("%s answered HTTP %d with %s (check --base-url)", baseURL, e.Status, e.Detail)
	}
	if e.Detail != "" {
		return fmt.Sprintf("%s answered %s: %s", baseURL, what, e.Detail)
	}
	return fmt.Sprintf("%s answered %s", baseURL, what)
}

// credentialNoun names what to check after a 401, and a hint to add.
func credentialNoun(authType string) (noun, hint string) {
	switch authType {
	case config.AuthServiceAccount:
		return "client id/secret", ""
	case config.AuthUserAccount:
		return "access token", " (it may have expired: log in again with the cloud CLI)"
	case config.AuthNone:
		return "auth_type", " (no_auth sends no credentials)"
	}
	return "public/private key", ""
}

// innermost is the deepest error's text: the cause without the layers.
func innermost(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

// oneLine makes text safe to print as one terminal line: control characters
// and escape sequences (which could come from a server) become spaces.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || !unicode.IsPrint(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// scrub replaces any secret that slipped into text with its masked form: a
// last line of defence, the messages are built without them.
func scrub(s string, secrets []config.Secret) string {
	for _, sec := range secrets {
		if v := sec.Reveal(); len(v) >= 6 {
			s = strings.ReplaceAll(s, v, sec.Masked())
		}
	}
	return s
}

// scrubWriter scrubs secrets from everything written through it.
type scrubWriter struct {
	w       io.Writer
	secrets []config.Secret
}

func (s *scrubWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, scrub(string(p), s.secrets)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// What `check` found once authenticated.

// clusterRow is one cluster of any kind, as `check` lists it.
type clusterRow struct {
	id, name, kind, version, state string
}

type projectClusters struct {
	project  apiclient.Project
	clusters []clusterRow
	err      error // listing dedicated clusters failed
	flexErr  error // listing flex clusters failed (other than "not supported")
}

type actionVerdict struct {
	paneAction
	allowed bool
	reason  string
}

type checkReport struct {
	prof   *config.Resolved
	client *apiclient.Client
	status *apiclient.SystemStatus

	roles       []catalog.Assignment
	rolesSource string

	orgs        []apiclient.Organization
	orgsErr     error
	projects    []apiclient.Project
	projectsErr error
	clusters    []projectClusters
	skipped     int // projects whose clusters were not listed

	selected     *apiclient.Project
	selectedNote string
	verdicts     []actionVerdict
	deprecations []apiclient.Deprecation
}

func gatherReport(ctx context.Context, c *apiclient.Client, prof *config.Resolved, status *apiclient.SystemStatus) *checkReport {
	r := &checkReport{prof: prof, client: c, status: status}
	switch {
	case status.APIKey != nil && len(status.APIKey.Roles) > 0:
		r.roles, r.rolesSource = status.APIKey.Roles, "reported by the server"
	case prof.Roles != nil:
		r.roles, r.rolesSource = prof.Roles, "from profile "+prof.Name+" (the server did not report them)"
	}

	r.orgs, r.orgsErr = c.Projects().AllOrgs(ctx)
	r.projects, r.projectsErr = c.Projects().All(ctx)
	sort.SliceStable(r.projects, func(i, j int) bool { return r.projects[i].Name < r.projects[j].Name })

	listed := r.projects
	if len(listed) > checkClusterProjects {
		r.skipped = len(listed) - checkClusterProjects
		listed = listed[:checkClusterProjects]
	}
	r.clusters = make([]projectClusters, len(listed))
	sem := make(chan struct{}, checkConcurrency)
	var wg sync.WaitGroup
	for i, p := range listed {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			r.clusters[i] = listProjectClusters(ctx, c, p)
		}()
	}
	wg.Wait()

	if r.roles == nil && prof.AuthType == config.AuthServiceAccount {
		if found := lookupServiceAccountRoles(ctx, c, c.Principal(), r.orgs, r.projects); len(found) > 0 {
			r.roles, r.rolesSource = found, "looked up on the service account's organization and project records"
		}
	}
	r.selectProject()
	r.evaluateActions()
	r.deprecations = c.Deprecations()
	return r
}

// lookupServiceAccountRoles asks each visible organization and project what
// roles the service account holds there, since who-am-I does not say for
// service accounts. Places that refuse or do not know it are skipped.
func lookupServiceAccountRoles(ctx context.Context, c *apiclient.Client, clientID string, orgs []apiclient.Organization, projects []apiclient.Project) []catalog.Assignment {
	if len(projects) > checkClusterProjects {
		projects = projects[:checkClusterProjects]
	}
	var (
		mu    sync.Mutex
		found []catalog.Assignment
		wg    sync.WaitGroup
		sem   = make(chan struct{}, checkConcurrency)
	)
	lookup := func(get func() ([]catalog.Assignment, error)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if as, err := get(); err == nil {
				mu.Lock()
				found = append(found, as...)
				mu.Unlock()
			}
		}()
	}
	for _, o := range orgs {
		lookup(func() ([]catalog.Assignment, error) {
			sa, err := c.Projects().ServiceAccount(ctx, o.ID, clientID)
			if err != nil {
				return nil, err
			}
			return sa.OrgAssignments(o.ID), nil
		})
	}
	for _, p := range projects {
		lookup(func() ([]catalog.Assignment, error) {
			sa, err := c.Projects().ProjectServiceAccount(ctx, p.ID, clientID)
			if err != nil {
				return nil, err
			}
			return sa.GroupAssignments(p.ID), nil
		})
	}
	wg.Wait()
	sort.SliceStable(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.OrgID != b.OrgID {
			return a.OrgID > b.OrgID // organization roles first
		}
		if a.GroupID != b.GroupID {
			return a.GroupID < b.GroupID
		}
		return a.RoleName < b.RoleName
	})
	return found
}

// listProjectClusters lists a project's dedicated and flex clusters. A
// service without the flex API (404) simply has none.
func listProjectClusters(ctx context.Context, c *apiclient.Client, p apiclient.Project) projectClusters {
	pc := projectClusters{project: p}
	dedicated, err := c.Clusters().All(ctx, p.ID)
	pc.err = err
	for _, cl := range dedicated {
		kind := string(cl.ClusterType)
		if size := cl.InstanceSize(); size != "" {
			kind += " " + size
		}
		if cl.Tenant() {
			kind += " (shared)"
		}
		state := string(cl.StateName)
		if cl.Paused {
			state += " (paused)"
		}
		pc.clusters = append(pc.clusters, clusterRow{id: cl.ID, name: cl.Name, kind: kind, version: cl.MongoDBVersion, state: state})
	}
	flex, err := c.Clusters().AllFlex(ctx, p.ID)
	if err != nil && !apiclient.IsNotFound(err) {
		pc.flexErr = err
	}
	for _, fl := range flex {
		kind := "FLEX"
		if fl.ProviderSettings.BackingProviderName != "" {
			kind += " on " + fl.ProviderSettings.BackingProviderName
		}
		pc.clusters = append(pc.clusters, clusterRow{id: fl.ID, name: fl.Name, kind: kind, version: fl.MongoDBVersion, state: string(fl.StateName)})
	}
	sort.SliceStable(pc.clusters, func(a, b int) bool { return pc.clusters[a].name < pc.clusters[b].name })
	return pc
}

// selectProject picks the project whose actions are evaluated: the profile's,
// else the only one visible, else the first by name.
func (r *checkReport) selectProject() {
	id := r.prof.ProjectID
	if id != "" {
		for i := range r.projects {
			if r.projects[i].ID == id {
				r.selected, r.selectedNote = &r.projects[i], "the profile's project"
				return
			}
		}
		r.selected = &apiclient.Project{ID: id, Name: "(not visible to this caller)", OrgID: r.prof.OrgID}
		r.selectedNote = "the profile's project"
		return
	}
	switch len(r.projects) {
	case 0:
		return
	case 1:
		r.selected, r.selectedNote = &r.projects[0], "the only visible project"
	default:
		r.selected = &r.projects[0]
		r.selectedNote = "the first visible project; set project_id or MONGODB_ATLAS_PROJECT_ID to choose"
	}
}

func (r *checkReport) evaluateActions() {
	if r.selected == nil {
		return
	}
	gate := apiclient.NewGate(r.roles)
	gate.SetReadOnly(r.prof.ReadOnly)
	for _, p := range r.projects {
		gate.SetProjectOrg(p.ID, p.OrgID)
	}
	if r.selected.OrgID != "" {
		gate.SetProjectOrg(r.selected.ID, r.selected.OrgID)
	}
	for _, a := range paneActions() {
		ok, why := gate.Allowed(a.opID, r.selected.ID)
		r.verdicts = append(r.verdicts, actionVerdict{paneAction: a, allowed: ok, reason: why})
	}
}

func (r *checkReport) print(w io.Writer) {
	p := r.prof
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(format string, args ...any) { fmt.Fprintf(tw, format+"\n", args...) }

	line("profile\t%s", p.Name)
	if len(p.Source) > 0 {
		line("from\t%s", strings.Join(p.Source, "; "))
	} else {
		line("from\tdefaults only")
	}
	line("endpoint\t%s/api/%s/v2", r.client.BaseURL(), r.client.Service())
	line("service\t%s build %s%s", clean(r.status.AppName), clean(r.status.Build), map[bool]string{true: " (throttling on)"}[r.status.Throttling])
	line("auth\t%s (%s)", r.client.AuthMode(), orDash(p.AuthType))
	line("caller\t%s", r.caller())
	if p.ReadOnly {
		line("read-only\tyes: every mutating action is disabled")
	}
	tw.Flush()

	fmt.Fprintln(w)
	if r.roles == nil {
		fmt.Fprintf(w, "Roles: unknown: the server did not report them and profile %s lists none (add [[%s.roles]] to %s); actions show as allowed until the server refuses them\n",
			p.Name, p.Name, p.ConfigPath)
	} else {
		fmt.Fprintf(w, "Roles (%s):\n", r.rolesSource)
		for _, a := range r.roles {
			on := "project " + clean(a.GroupID)
			if a.OrgID != "" {
				on = "organization " + clean(a.OrgID)
			}
			line("  %s\t%s\ton %s", clean(string(a.RoleName)), a.RoleName.Label(), on)
		}
		if len(r.roles) == 0 {
			line("  none")
		}
		tw.Flush()
	}

	fmt.Fprintln(w)
	printListing(w, tw, "Organizations", r.orgs, r.orgsErr, func(o apiclient.Organization) {
		line("  %s\t%s", clean(o.Name), clean(o.ID))
	})

	fmt.Fprintln(w)
	printListing(w, tw, "Projects", r.projects, r.projectsErr, func(pr apiclient.Project) {
		line("  %s\t%s\torg %s", clean(pr.Name), clean(pr.ID), clean(pr.OrgID))
	})

	if len(r.clusters) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Clusters:")
		for _, pc := range r.clusters {
			name := clean(pc.project.Name)
			switch {
			case pc.err != nil && len(pc.clusters) == 0:
				fmt.Fprintf(w, "  %s: could not list: %s\n", name, listError(pc.err))
			case len(pc.clusters) == 0:
				fmt.Fprintf(w, "  %s: none\n", name)
			default:
				fmt.Fprintf(w, "  %s:\n", name)
				for _, c := range pc.clusters {
					line("    %s\t%s\t%s\t%s\t%s", clean(c.name), clean(c.id), orDash(clean(c.kind)), orDash(clean(c.version)), orDash(clean(c.state)))
				}
				tw.Flush()
				if pc.err != nil {
					fmt.Fprintf(w, "    (dedicated clusters: could not list: %s)\n", listError(pc.err))
				}
			}
			if pc.flexErr != nil {
				fmt.Fprintf(w, "    (flex clusters: could not list: %s)\n", listError(pc.flexErr))
			}
		}
		if r.skipped > 0 {
			fmt.Fprintf(w, "  (clusters of %d more projects not listed)\n", r.skipped)
		}
	}

	fmt.Fprintln(w)
	if len(r.deprecations) == 0 {
		fmt.Fprintln(w, "Deprecations: none seen")
	} else {
		fmt.Fprintln(w, "Deprecations seen:")
		for _, d := range r.deprecations {
			line("  %s\tversion %s\tdeprecated %s\tsunset %s", d.Op, orDash(d.Version), orDash(clean(d.Deprecation)), orDash(clean(d.Sunset)))
		}
		tw.Flush()
	}

	fmt.Fprintln(w)
	if r.selected == nil {
		fmt.Fprintln(w, "Actions: not evaluated: no project is visible and the profile names none")
		return
	}
	fmt.Fprintf(w, "Strongest role in project %s: %s\n", clean(r.selected.Name), r.strongestRole())
	fmt.Fprintf(w, "Actions in project %s (%s; %s):\n", clean(r.selected.Name), clean(r.selected.ID), r.selectedNote)
	for _, v := range r.verdicts {
		verdict := "allowed"
		switch {
		case !v.allowed:
			verdict = "denied: " + v.reason
		case r.roles == nil:
			verdict = "allowed (roles unknown)"
		}
		line("  %s\t%s\t%s\t%s", v.pane, v.action, v.opID, verdict)
	}
	tw.Flush()
}

// caller names who authenticated, never with a secret: the API key's public
// key (an identifier the console shows too), the service account's client
// id, or "user account".
func (r *checkReport) caller() string {
	if k := r.status.APIKey; k != nil && k.PublicKey != "" {
		s := "API key " + clean(k.PublicKey)
		if k.ID != "" {
			s += " (id " + clean(k.ID) + ")"
		}
		return s
	}
	switch r.prof.AuthType {
	case config.AuthServiceAccount:
		return "service account " + clean(r.client.Principal())
	case config.AuthUserAccount:
		return "user account (access token from the profile or environment)"
	case config.AuthNone:
		return "anonymous (no_auth)"
	}
	return clean(r.client.Principal())
}

// printListing prints a listing's heading with its count and a row per
// item (row writes to tw), or why the list could not be read.
func printListing[T any](w io.Writer, tw *tabwriter.Writer, title string, items []T, err error, row func(T)) {
	if err != nil {
		fmt.Fprintf(w, "%s: could not list: %s\n", title, listError(err))
		return
	}
	fmt.Fprintf(w, "%s (%d):\n", title, len(items))
	for _, x := range items {
		row(x)
	}
	tw.Flush()
}

// listError is a failed list call in a few words.
func listError(err error) string {
	if e, ok := apiclient.AsError(err); ok {
		s := fmt.Sprintf("%d %s", e.Status, e.ErrorCode)
		if e.Detail != "" {
			s += ": " + e.Detail
		}
		return clean(s)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "timed out"
	}
	return clean(innermost(err))
}

// clean strips control characters from server-provided text.
func clean(s string) string { return oneLine(s) }

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}

// strongestRole is the caller's strongest role on the selected project, by
// the rule the dashboard's header badge uses.
func (r *checkReport) strongestRole() string {
	if r.roles == nil {
		return "unknown"
	}
	best, ok := catalog.Strongest(r.roles, catalog.Target{GroupID: r.selected.ID, OrgID: r.selected.OrgID})
	if !ok {
		return "none"
	}
	return best.Label()
}
