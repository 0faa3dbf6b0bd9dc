package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/dbadmin-tui/dbadmin-tui/apiclient"
	"github.com/dbadmin-tui/dbadmin-tui/apiclient/catalog"
	"github.com/dbadmin-tui/dbadmin-tui/config"
)

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
